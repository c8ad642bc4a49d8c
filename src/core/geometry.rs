//! Board geometry: a square grid of intersections, stored flat with a border.
//!
//! A board of `size` x `size` points is laid out in a flat array of
//! `(size + 2)^2` cells: one ring of border cells surrounds the board, so the
//! eight neighbour offsets are constants and a neighbour lookup needs no bounds
//! check (a border cell is never occupied). Nothing here knows about beads or
//! nutrients; other root-growing games can use the same grid.

use serde::{Deserialize, Serialize};

/// A cell of the flat array: an intersection on the board, or a border cell.
///
/// Points are small `Copy` indices; convert with [`Grid::point`] and
/// [`Grid::xy`].
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Point(pub u16);

impl Point {
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell `d` places away in the flat array (a neighbour offset from
    /// [`Grid::offsets`]).
    #[inline(always)]
    pub const fn offset(self, d: i16) -> Point {
        Point(self.0.wrapping_add_signed(d))
    }
}

/// Largest board side the grid supports.
pub const MAX_SIZE: u8 = 25;

/// A square grid of `size` x `size` intersections, `(0, 0)` in a corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    size: u8,
    stride: u16,
    /// `ceil(2^16 / stride)`: a cell's row is `(index * recip) >> 16`, exact
    /// for every cell of the largest grid, so `xy` needs no division.
    recip: u32,
    /// `ceil(2^16 / size)`: the row of the `i`-th point is
    /// `(i * size_recip) >> 16`, exact for every point of the largest grid.
    size_recip: u32,
    neighbours: [i16; 8],
}

impl Grid {
    /// A grid with `size` points per side (`1..=MAX_SIZE`).
    pub fn new(size: u8) -> Grid {
        assert!(
            (1..=MAX_SIZE).contains(&size),
            "board size {size} out of range"
        );
        let stride = i16::from(size) + 2;
        Grid {
            size,
            stride: stride as u16,
            recip: (1u32 << 16).div_ceil(stride as u32),
            size_recip: (1u32 << 16).div_ceil(u32::from(size)),
            neighbours: [
                -stride - 1,
                -stride,
                -stride + 1,
                -1,
                1,
                stride - 1,
                stride,
                stride + 1,
            ],
        }
    }

    /// Cells in a row of the flat array: the side plus the border on each end.
    pub const fn stride(&self) -> usize {
        // From the size (at most 255), not the stored `u16`: the compiler
        // then knows the bound, which spares checks on the hot path.
        self.size as usize + 2
    }

    pub const fn size(&self) -> u8 {
        self.size
    }

    /// Length of the flat array, border included.
    pub const fn cells(&self) -> usize {
        (self.stride as usize) * (self.stride as usize)
    }

    /// Number of intersections on the board.
    pub const fn points(&self) -> usize {
        (self.size as usize) * (self.size as usize)
    }

    /// The point at column `x`, row `y`, or `None` off the board.
    pub fn point(&self, x: i32, y: i32) -> Option<Point> {
        let s = i32::from(self.size);
        if (0..s).contains(&x) && (0..s).contains(&y) {
            Some(Point(((y + 1) * i32::from(self.stride) + x + 1) as u16))
        } else {
            None
        }
    }

    /// Column and row of an on-board point.
    #[inline]
    pub fn xy(&self, p: Point) -> (u8, u8) {
        let (c, r) = self.cell_column_row(p);
        ((c - 1) as u8, (r - 1) as u8)
    }

    /// The `i`-th point of the board in row order (`i < size * size`; the
    /// order of [`Grid::all`]), without a division.
    #[inline]
    pub fn nth_point(&self, i: u32) -> Point {
        debug_assert!(i < u32::from(self.size) * u32::from(self.size));
        let y = (i * self.size_recip) >> 16;
        let x = i - y * u32::from(self.size);
        Point(((y + 1) * u32::from(self.stride) + x + 1) as u16)
    }

    /// Column and row of a cell of the flat array, border included.
    #[inline]
    fn cell_column_row(&self, p: Point) -> (u16, u16) {
        let r = ((u32::from(p.0) * self.recip) >> 16) as u16;
        (p.0 - r * self.stride, r)
    }

    /// Whether a cell of the flat array is on the board (not border).
    #[inline]
    pub fn on_board(&self, p: Point) -> bool {
        if p.index() >= self.cells() {
            return false;
        }
        let (c, r) = self.cell_column_row(p);
        c >= 1 && r >= 1 && c <= u16::from(self.size) && r <= u16::from(self.size)
    }

    /// The eight cells around `p` (some may be border cells when `p` is on an edge).
    #[inline]
    pub fn around(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        self.neighbours.iter().map(move |&d| p.offset(d))
    }

    /// The eight neighbour offsets in the flat array.
    #[inline]
    pub fn offsets(&self) -> &[i16; 8] {
        &self.neighbours
    }

    /// Whether two points touch (orthogonally or diagonally).
    pub fn adjacent(&self, a: Point, b: Point) -> bool {
        let (ax, ay) = self.xy(a);
        let (bx, by) = self.xy(b);
        a != b && ax.abs_diff(bx) <= 1 && ay.abs_diff(by) <= 1
    }

    /// Every on-board point, row by row from `(0, 0)`.
    pub fn all(&self) -> impl Iterator<Item = Point> + '_ {
        let (size, stride) = (u16::from(self.size), self.stride);
        (0..size).flat_map(move |y| {
            let first = (y + 1) * stride + 1;
            (first..first + size).map(Point)
        })
    }

    /// The centre point (for odd sizes the true centre; for even sizes the one
    /// just below and left of it).
    pub fn centre(&self) -> Point {
        let c = i32::from((self.size - 1) / 2);
        self.point(c, c).expect("centre is on the board")
    }

    /// Format a point as the `x,y` users type.
    pub fn name(&self, p: Point) -> String {
        let (x, y) = self.xy(p);
        format!("{x},{y}")
    }

    /// Parse `x,y` (spaces allowed) into an on-board point.
    pub fn parse(&self, s: &str) -> Option<Point> {
        let (x, y) = s.split_once(',')?;
        let x: i32 = x.trim().parse().ok()?;
        let y: i32 = y.trim().parse().ok()?;
        self.point(x, y)
    }
}

/// Cells of the largest grid, border included.
pub const MAX_CELLS: usize = (MAX_SIZE as usize + 2) * (MAX_SIZE as usize + 2);

/// A set of cells of any grid, as a fixed bitmap: no allocation, cheap to
/// clear and copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointSet([u64; PointSet::WORDS]);

impl Default for PointSet {
    fn default() -> Self {
        PointSet::new()
    }
}

impl PointSet {
    const WORDS: usize = MAX_CELLS.div_ceil(64);

    pub const fn new() -> PointSet {
        PointSet([0; PointSet::WORDS])
    }

    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        self.0[p.index() / 64] >> (p.index() % 64) & 1 == 1
    }

    /// Add `p`; `false` if it was already there.
    #[inline]
    pub fn insert(&mut self, p: Point) -> bool {
        let (w, b) = (p.index() / 64, 1u64 << (p.index() % 64));
        let new = self.0[w] & b == 0;
        self.0[w] |= b;
        new
    }

    /// Add the `len` points from `first` on in flat-array order (a row of
    /// a board), a word at a time.
    pub fn insert_run(&mut self, first: Point, len: usize) {
        let (mut i, end) = (first.index(), first.index() + len);
        while i < end {
            let bit = i % 64;
            let span = (64 - bit).min(end - i);
            let mask = if span == 64 {
                u64::MAX
            } else {
                ((1u64 << span) - 1) << bit
            };
            self.0[i / 64] |= mask;
            i += span;
        }
    }

    #[inline]
    pub fn remove(&mut self, p: Point) {
        self.0[p.index() / 64] &= !(1u64 << (p.index() % 64));
    }

    /// The set as words of bits (bit `i % 64` of word `i / 64` for the
    /// point of index `i`).
    #[inline]
    pub fn words(&self) -> &[u64] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Call `f` with every point of the set, in the order of
    /// [`PointSet::iter`]: a plain loop over the words, which a caller
    /// filling a list runs several times faster than `extend(iter())`.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(Point)) {
        for (i, &word) in self.0.iter().enumerate() {
            let mut w = word;
            while w != 0 {
                let bit = w.trailing_zeros() as usize;
                w &= w - 1;
                f(Point((i * 64 + bit) as u16));
            }
        }
    }

    /// Take every point of `other` out of the set, a word at a time.
    #[inline]
    pub fn remove_all(&mut self, other: &PointSet) {
        for (w, o) in self.0.iter_mut().zip(&other.0) {
            *w &= !o;
        }
    }

    /// The set's points and every point next to one (the eight neighbours
    /// of a board whose rows are `stride` cells apart, `stride` below 64),
    /// a word at a time: the row's neighbours by shifting one bit each way,
    /// then those of the rows above and below by shifting `stride`. Meant
    /// for points off the border (a border point's neighbours off the array
    /// are dropped, those across a row's end land on the next row's border).
    pub fn around(&self, stride: usize) -> PointSet {
        self.spread(1).spread(stride)
    }

    /// The set's points and those `shift` cells before and after each in
    /// flat-array order (`shift` in `1..64`).
    #[inline]
    fn spread(&self, shift: usize) -> PointSet {
        debug_assert!((1..64).contains(&shift));
        let b = &self.0;
        let n = b.len();
        let mut out = [0u64; PointSet::WORDS];
        for (w, slot) in out.iter_mut().enumerate() {
            let mut v = b[w] | b[w] << shift | b[w] >> shift;
            if w > 0 {
                v |= b[w - 1] >> (64 - shift);
            }
            if w + 1 < n {
                v |= b[w + 1] << (64 - shift);
            }
            *slot = v;
        }
        PointSet(out)
    }

    /// The points of the set in flat-array order, which on a board is row by
    /// row from `(0, 0)`, the order of [`Grid::all`].
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut w = word;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Point((i * 64 + bit) as u16)
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_k_and_7_minus_k_are_opposite() {
        // Roots and Shoots follows a root's run by this (`run_upto`).
        for size in [1u8, 5, 19, MAX_SIZE] {
            let o = Grid::new(size).offsets().to_owned();
            assert!((0..8).all(|i| o[i] == -o[7 - i]), "size {size}");
        }
    }

    #[test]
    fn around_is_every_point_and_its_neighbours() {
        for size in [5u8, 9, 13, 19, MAX_SIZE] {
            let g = Grid::new(size);
            // A scatter of points, corners and edges included.
            let mut set = PointSet::new();
            for (i, p) in g.all().enumerate() {
                if i % 7 == 0 || i % 11 == 3 {
                    set.insert(p);
                }
            }
            let mut want = set;
            for p in set.iter() {
                for &d in g.offsets() {
                    want.insert(p.offset(d));
                }
            }
            assert_eq!(set.around(g.stride()), want, "size {size}");
            let mut rest = want;
            rest.remove_all(&set);
            assert!(set.iter().all(|p| !rest.contains(p)));
            assert_eq!(rest.len(), want.len() - set.len());
        }
    }

    #[test]
    fn nth_point_is_the_row_order() {
        for size in 1..=MAX_SIZE {
            let g = Grid::new(size);
            let n = u32::from(size);
            for (i, p) in g.all().enumerate() {
                let i = i as u32;
                assert_eq!(g.nth_point(i), p, "size {size}, point {i}");
                let expected = g.point((i % n) as i32, (i / n) as i32);
                assert_eq!(Some(g.nth_point(i)), expected, "size {size}, point {i}");
            }
        }
    }

    #[test]
    fn round_trip_and_neighbours() {
        let g = Grid::new(19);
        assert_eq!(g.all().count(), 361);
        for p in g.all() {
            let (x, y) = g.xy(p);
            assert_eq!(g.point(i32::from(x), i32::from(y)), Some(p));
            let on = g.around(p).filter(|&q| g.on_board(q)).count();
            let edge = [x == 0, x == 18, y == 0, y == 18]
                .iter()
                .filter(|&&e| e)
                .count();
            let expected = match edge {
                0 => 8,
                1 => 5,
                _ => 3,
            };
            assert_eq!(on, expected, "{x},{y}");
            for q in g.around(p).filter(|&q| g.on_board(q)) {
                assert!(g.adjacent(p, q));
            }
        }
        assert_eq!(g.point(19, 0), None);
        assert_eq!(g.point(-1, 3), None);
        assert_eq!(g.xy(g.centre()), (9, 9));
        assert_eq!(g.parse(" 3, 4"), g.point(3, 4));
        assert_eq!(g.parse("3;4"), None);
    }

    /// Rows and columns by multiplication agree with division for every
    /// cell of every grid size.
    #[test]
    fn rows_and_columns_without_division() {
        for size in 1..=MAX_SIZE {
            let g = Grid::new(size);
            let stride = u16::from(size) + 2;
            for i in 0..g.cells() as u16 {
                assert_eq!(
                    g.cell_column_row(Point(i)),
                    (i % stride, i / stride),
                    "size {size}"
                );
            }
        }
    }

    #[test]
    fn point_sets_hold_every_cell_of_the_largest_grid() {
        let g = Grid::new(MAX_SIZE);
        assert_eq!(g.cells(), MAX_CELLS);
        let mut set = PointSet::new();
        for i in 0..MAX_CELLS {
            let p = Point(i as u16);
            assert!(!set.contains(p));
            assert!(set.insert(p));
            assert!(!set.insert(p));
            assert!(set.contains(p));
        }
        assert_eq!(set.len(), MAX_CELLS);
        for i in (0..MAX_CELLS).step_by(2) {
            set.remove(Point(i as u16));
        }
        assert_eq!(set.len(), MAX_CELLS / 2);
        assert!(!set.contains(Point(0)) && set.contains(Point(1)));
        assert!(PointSet::new().is_empty());
        let odd: Vec<Point> = set.iter().collect();
        let expected: Vec<Point> = (1..MAX_CELLS).step_by(2).map(|i| Point(i as u16)).collect();
        assert_eq!(odd, expected);
        // Flat order is the order of `Grid::all`.
        let mut board = PointSet::new();
        for p in g.all().collect::<Vec<_>>().into_iter().rev() {
            board.insert(p);
        }
        assert!(board.iter().eq(g.all()));
    }

    /// `insert_run` adds the run's points and no other, across word
    /// boundaries; `words` holds them bit for bit.
    #[test]
    fn runs_of_points_are_inserted_a_word_at_a_time() {
        for (first, len) in [(0, 1), (3, 61), (60, 8), (63, 130), (64, 64), (100, 0)] {
            let mut run = PointSet::new();
            run.insert(Point(1));
            run.insert_run(Point(first as u16), len);
            let mut one_by_one = PointSet::new();
            one_by_one.insert(Point(1));
            for i in first..first + len {
                one_by_one.insert(Point(i as u16));
            }
            assert_eq!(run, one_by_one, "{first} {len}");
            let from_words: Vec<usize> = (0..64 * run.words().len())
                .filter(|&i| run.words()[i / 64] >> (i % 64) & 1 == 1)
                .collect();
            let from_iter: Vec<usize> = run.iter().map(|p| p.index()).collect();
            assert_eq!(from_words, from_iter);
        }
    }
}
