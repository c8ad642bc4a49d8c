//! Boards as small graphs: cells, and for each cell at most one neighbour in
//! each of the four directions. A direction is a label on an edge as seen from
//! one end; on the zone boards the label can differ at the two ends of a seam
//! (from a1 the edge to e1 leaves southwards, from e1 it leaves westwards).
//!
//! Every board is drawn on a layout grid of columns `a, b, ..` and ranks `1..`
//! (rank 1 at the bottom); a cell's name is its column letter and rank, as on a
//! chessboard.

use super::rules::{BoardShape, Markers, Mouth, Rules};

/// Most cells any board has (8 x 12 or six 4x4 zones: 96), so a set of cells
/// fits in a `u128`.
pub const MAX_CELLS: usize = 128;

/// No cell.
pub const NONE: u8 = u8::MAX;

/// A direction a pyramid points in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Dir {
    /// Towards the higher ranks (up the drawing).
    N = 0,
    /// Towards the later columns (right).
    E = 1,
    /// Towards the lower ranks (down).
    S = 2,
    /// Towards the earlier columns (left).
    W = 3,
}

impl Dir {
    /// The four directions, in the order N, E, S, W.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// The direction from its index 0..4.
    pub const fn from_index(i: u8) -> Dir {
        match i & 3 {
            0 => Dir::N,
            1 => Dir::E,
            2 => Dir::S,
            _ => Dir::W,
        }
    }

    /// The letter: `N`, `E`, `S` or `W`.
    pub const fn letter(self) -> char {
        match self {
            Dir::N => 'N',
            Dir::E => 'E',
            Dir::S => 'S',
            Dir::W => 'W',
        }
    }

    /// Read a letter or word (`n`, `North`, `up`, `^` ...).
    pub fn parse(s: &str) -> Option<Dir> {
        match s.to_ascii_lowercase().as_str() {
            "n" | "north" | "up" | "u" | "^" => Some(Dir::N),
            "e" | "east" | "right" | "r" | ">" => Some(Dir::E),
            "s" | "south" | "down" | "d" | "v" => Some(Dir::S),
            "w" | "west" | "left" | "l" | "<" => Some(Dir::W),
            _ => None,
        }
    }
}

/// What kind of board, for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// A rectangle, `width` x `height`.
    Rectangle,
    /// A ring (or open chain) of 4x4 zones joined at a centre point.
    Zones {
        /// Number of zones.
        zones: u8,
        /// Whether the last zone is joined to the first.
        closed: bool,
    },
}

/// A board: cells, their neighbours, their names and places in the drawing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// What kind of board.
    pub layout: Layout,
    /// Columns of the drawing.
    pub width: u8,
    /// Ranks of the drawing.
    pub height: u8,
    nbr: Vec<[u8; 4]>,
    /// For each cell, the neighbours and the direction in which each of them points back at it.
    incoming: Vec<[(u8, u8); 4]>,
    nbr_mask: Vec<u128>,
    /// `(column, rank - 1)` of each cell.
    place: Vec<(u8, u8)>,
    /// Cell at `column + width * (rank - 1)`, or NONE.
    at: Vec<u8>,
    /// Cells fixed as roots by `centre_roots`.
    centre: Vec<u8>,
}

impl Board {
    /// The board the rules give for `players`.
    pub fn for_rules(rules: &Rules, players: u8) -> Board {
        let n = players.clamp(2, 6);
        let mut board = match rules.board.shape {
            BoardShape::Official => match n {
                2 => Board::rectangle(8, 4),
                4 => Board::rectangle(8, 8),
                _ => Board::zones(n, n != 5 || rules.board.five_player_mouth == Mouth::Closed),
            },
            BoardShape::Rectangle => Board::rectangle(8, 2 * n),
            BoardShape::Arcade => {
                if n == 6 {
                    Board::rectangle(6, 10)
                } else {
                    Board::rectangle(2 * n, 5)
                }
            }
        };
        if rules.setup.markers == Markers::CentreRoots {
            board.centre = board.centre_cells(n);
        }
        board
    }

    /// The cells at the centre of the board, one per player (Martian Go's roots).
    fn centre_cells(&self, n: u8) -> Vec<u8> {
        let names: &[&str] = match (self.layout, self.width, self.height) {
            (Layout::Zones { zones, .. }, _, _) => {
                return (0..zones).filter_map(|q| self.cell_at(4 * q, 0)).collect();
            }
            (_, 8, 4) => &["d4", "e4"],
            (_, 8, 6) => &["d4", "e4", "d3"],
            (_, 8, 8) => &["d4", "e4", "d5", "e5"],
            _ => &[],
        };
        names
            .iter()
            .take(usize::from(n))
            .filter_map(|s| self.parse_cell(s))
            .collect()
    }

    /// A `width` x `height` rectangle.
    pub fn rectangle(width: u8, height: u8) -> Board {
        let mut b = Board::empty(Layout::Rectangle, width, height);
        for rank in (0..height).rev() {
            for col in 0..width {
                b.add(col, rank);
            }
        }
        for c in 0..b.cells() as u8 {
            let (col, rank) = b.place[usize::from(c)];
            if let Some(t) = rank.checked_add(1).and_then(|r| b.cell_at(col, r)) {
                b.join(c, Dir::N, t, Dir::S);
            }
            if let Some(t) = col.checked_add(1).and_then(|x| b.cell_at(x, rank)) {
                b.join(c, Dir::E, t, Dir::W);
            }
        }
        b.finish()
    }

    /// `zones` zones of 4x4 cells round a centre point. Zone `q` is drawn in
    /// columns `4q .. 4q+3`, ranks 1 to 4, with its corner at the centre point
    /// bottom left. Its bottom row is joined to the left column of zone `q+1`,
    /// cell by cell outwards from the centre: leaving the bottom row southwards
    /// you arrive in the next zone's left column, and leaving that column
    /// westwards you come back. `closed` joins the last zone to the first too.
    pub fn zones(zones: u8, closed: bool) -> Board {
        let width = 4 * zones;
        let mut b = Board::empty(Layout::Zones { zones, closed }, width, 4);
        for rank in (0..4).rev() {
            for col in 0..width {
                b.add(col, rank);
            }
        }
        for c in 0..b.cells() as u8 {
            let (col, rank) = b.place[usize::from(c)];
            if rank < 3
                && let Some(t) = b.cell_at(col, rank + 1)
            {
                b.join(c, Dir::N, t, Dir::S);
            }
            if col % 4 < 3
                && let Some(t) = b.cell_at(col + 1, rank)
            {
                b.join(c, Dir::E, t, Dir::W);
            }
        }
        for q in 0..zones {
            let next = if q + 1 < zones {
                q + 1
            } else if closed {
                0
            } else {
                continue;
            };
            for a in 0..4 {
                let from = b.cell_at(4 * q + a, 0).expect("zone cell");
                let to = b.cell_at(4 * next, a).expect("zone cell");
                b.join(from, Dir::S, to, Dir::W);
            }
        }
        b.finish()
    }

    fn empty(layout: Layout, width: u8, height: u8) -> Board {
        Board {
            layout,
            width,
            height,
            nbr: Vec::new(),
            incoming: Vec::new(),
            nbr_mask: Vec::new(),
            place: Vec::new(),
            at: vec![NONE; usize::from(width) * usize::from(height)],
            centre: Vec::new(),
        }
    }

    fn add(&mut self, col: u8, rank: u8) {
        let c = self.nbr.len() as u8;
        self.nbr.push([NONE; 4]);
        self.place.push((col, rank));
        self.at[usize::from(col) + usize::from(self.width) * usize::from(rank)] = c;
    }

    fn join(&mut self, a: u8, da: Dir, b: u8, db: Dir) {
        debug_assert_eq!(self.nbr[usize::from(a)][da as usize], NONE);
        debug_assert_eq!(self.nbr[usize::from(b)][db as usize], NONE);
        self.nbr[usize::from(a)][da as usize] = b;
        self.nbr[usize::from(b)][db as usize] = a;
    }

    fn finish(mut self) -> Board {
        let n = self.nbr.len();
        assert!(n <= MAX_CELLS, "a board has at most {MAX_CELLS} cells");
        self.incoming = vec![[(NONE, 0); 4]; n];
        self.nbr_mask = vec![0; n];
        for y in 0..n {
            for d in 0..4 {
                let x = self.nbr[y][d];
                if x == NONE {
                    continue;
                }
                self.nbr_mask[y] |= 1u128 << x;
                let slot = self.incoming[usize::from(x)]
                    .iter_mut()
                    .find(|s| s.0 == NONE)
                    .expect("a cell has at most four neighbours");
                *slot = (y as u8, d as u8);
            }
        }
        self
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.nbr.len()
    }

    /// Every cell, as a bit set.
    pub fn all(&self) -> u128 {
        if self.cells() == 128 {
            u128::MAX
        } else {
            (1u128 << self.cells()) - 1
        }
    }

    /// The neighbour of `cell` in direction `dir`, or [`NONE`].
    #[inline]
    pub fn neighbour(&self, cell: u8, dir: Dir) -> u8 {
        self.nbr[usize::from(cell)][dir as usize]
    }

    /// The neighbours of `cell` that point at it, each with its direction.
    #[inline]
    pub fn incoming(&self, cell: u8) -> &[(u8, u8); 4] {
        &self.incoming[usize::from(cell)]
    }

    /// The neighbours of `cell`, as a bit set.
    #[inline]
    pub fn neighbours_mask(&self, cell: u8) -> u128 {
        self.nbr_mask[usize::from(cell)]
    }

    /// Cells fixed as roots before play (`centre_roots`), else empty.
    pub fn centre_roots(&self) -> &[u8] {
        &self.centre
    }

    /// The cell drawn at `col` (0 = `a`) and `rank - 1`.
    pub fn cell_at(&self, col: u8, rank0: u8) -> Option<u8> {
        if col >= self.width || rank0 >= self.height {
            return None;
        }
        let c = self.at[usize::from(col) + usize::from(self.width) * usize::from(rank0)];
        (c != NONE).then_some(c)
    }

    /// `(column, rank - 1)` of a cell in the drawing.
    pub fn place(&self, cell: u8) -> (u8, u8) {
        self.place[usize::from(cell)]
    }

    /// The name of a cell: column letter and rank, `c2`.
    pub fn name(&self, cell: u8) -> String {
        let (col, rank) = self.place(cell);
        format!("{}{}", (b'a' + col) as char, rank + 1)
    }

    /// Read a cell name (`c2`, `C2`).
    pub fn parse_cell(&self, s: &str) -> Option<u8> {
        let s = s.trim();
        let mut chars = s.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let rank: u8 = chars.as_str().parse().ok()?;
        let col = letter as u8 - b'a';
        self.cell_at(col, rank.checked_sub(1)?)
    }

    /// Whether the cells of `set` form one orthogonally connected group (true when empty).
    pub fn connected(&self, set: u128) -> bool {
        if set == 0 {
            return true;
        }
        let start = set.trailing_zeros() as u8;
        let mut seen = 1u128 << start;
        let mut frontier = seen;
        while frontier != 0 {
            let mut next = 0u128;
            let mut f = frontier;
            while f != 0 {
                let c = f.trailing_zeros() as u8;
                f &= f - 1;
                next |= self.nbr_mask[usize::from(c)];
            }
            next &= set & !seen;
            seen |= next;
            frontier = next;
        }
        seen == set
    }

    /// A short description: `8x4`, `3 zones (closed ring)`.
    pub fn describe(&self) -> String {
        match self.layout {
            Layout::Rectangle => format!("{}x{}", self.width, self.height),
            Layout::Zones { zones, closed } => format!(
                "{zones} zones of 4x4 ({})",
                if closed { "closed ring" } else { "open mouth" }
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symmetric(b: &Board) {
        for c in 0..b.cells() as u8 {
            for d in Dir::ALL {
                let t = b.neighbour(c, d);
                if t != NONE {
                    assert!(
                        Dir::ALL.iter().any(|&e| b.neighbour(t, e) == c),
                        "{} -> {} not symmetric",
                        b.name(c),
                        b.name(t)
                    );
                }
            }
        }
    }

    #[test]
    fn four_zones_are_a_chessboard_in_degrees() {
        let z = Board::zones(4, true);
        let r = Board::rectangle(8, 8);
        let degrees = |b: &Board| {
            let mut v: Vec<u32> = (0..b.cells() as u8)
                .map(|c| b.neighbours_mask(c).count_ones())
                .collect();
            v.sort();
            v
        };
        assert_eq!(degrees(&z), degrees(&r));
        let edges = |b: &Board| {
            (0..b.cells() as u8)
                .map(|c| b.neighbours_mask(c).count_ones())
                .sum::<u32>()
        };
        assert_eq!(edges(&z), edges(&r));
        symmetric(&z);
        symmetric(&r);
    }

    #[test]
    fn four_zones_map_onto_the_chessboard_edge_for_edge() {
        // Zone q, column offset a, rank offset b, placed round the centre of
        // an 8x8 board: zone 1 top right, 2 bottom right, 3 bottom left, 4 top left.
        let z = Board::zones(4, true);
        let r = Board::rectangle(8, 8);
        let map = |c: u8| -> u8 {
            let (col, rank0) = z.place(c);
            let (q, a, b) = (col / 4, col % 4, rank0);
            let (x, y) = match q {
                0 => (4 + a, 4 + b),
                1 => (4 + b, 3 - a),
                2 => (3 - a, 3 - b),
                _ => (3 - b, 4 + a),
            };
            r.cell_at(x, y).unwrap()
        };
        let image: std::collections::BTreeSet<u8> = (0..64).map(map).collect();
        assert_eq!(image.len(), 64, "one cell for one cell");
        let mut edges = 0;
        for c in 0..z.cells() as u8 {
            for d in Dir::ALL {
                let t = z.neighbour(c, d);
                if t != NONE {
                    edges += 1;
                    assert_ne!(
                        r.neighbours_mask(map(c)) & (1u128 << map(t)),
                        0,
                        "{} - {}",
                        z.name(c),
                        z.name(t)
                    );
                }
            }
        }
        let chess: u32 = (0..64).map(|c| r.neighbours_mask(c).count_ones()).sum();
        assert_eq!(edges, chess, "and no edge is missing");
    }

    #[test]
    fn three_zone_centre_cells_touch_each_other() {
        let b = Board::zones(3, true);
        symmetric(&b);
        let a1 = b.parse_cell("a1").unwrap();
        let e1 = b.parse_cell("e1").unwrap();
        let i1 = b.parse_cell("i1").unwrap();
        assert_eq!(b.neighbour(a1, Dir::S), e1);
        assert_eq!(b.neighbour(a1, Dir::W), i1);
        assert_eq!(b.neighbour(e1, Dir::W), a1);
        assert_eq!(b.neighbour(e1, Dir::S), i1);
        assert_eq!(
            b.neighbour(b.parse_cell("c1").unwrap(), Dir::S),
            b.parse_cell("e3").unwrap()
        );
        assert_eq!(b.neighbour(b.parse_cell("d4").unwrap(), Dir::E), NONE);
        assert_eq!(b.cells(), 48);
    }

    #[test]
    fn the_open_mouth_has_an_outer_edge() {
        let b = Board::zones(5, false);
        let a1 = b.parse_cell("a1").unwrap();
        assert_eq!(b.neighbour(a1, Dir::W), NONE);
        let q1 = b.parse_cell("q1").unwrap();
        assert_eq!(b.neighbour(q1, Dir::S), NONE);
        assert!(b.connected(b.all()));
    }
}
