//! Where a bead may go: the placement rules of the four growth actions, root
//! strength for struggles, and the fast paths random play needs.
//!
//! [`State::judge`] is the one place the placement rules live. It returns a
//! small `Copy` [`Why`] on refusal, so the hot path never builds a string; the
//! referee turns a `Why` into a sentence with [`Why::explain`].

use crate::core::dice::SeededDice;
use crate::core::geometry::{Point, PointSet};
use crate::core::protocol::Seat;
use crate::roots::state::{OFF, State};
use crate::variant::rules::{BudsTouch, Growth, SimpleGrowthPath};

/// What a legal placement does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceKind {
    /// A bead on an empty point.
    Plain,
    /// A bead on top of an unmarked nutrient: it marks the nutrient.
    Mark,
    /// A bead contesting a point held by another colour: a struggle.
    Attack(Seat),
}

/// Why a placement is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    OffBoard,
    OwnBead,
    NoStruggleWith,
    StrugglesUsed,
    NotArrived,
    TouchesOldBead,
    NotWithNewPlant,
    NoOwnNeighbour,
    BudTouches(u8),
    SimpleTouches(u8),
    NotAnEnd(Point),
    NotFromLast(Point),
    NotPlacing,
}

impl Why {
    /// The refusal in words, for a player at the table.
    pub fn explain(self, state: &State, action: Growth, p: Point) -> String {
        let g = state.grid();
        let at = g.name(p);
        match self {
            Why::OffBoard => format!("{at} is off the board"),
            Why::OwnBead => {
                format!("{at} already holds one of your beads (you can't sever your own line)")
            }
            Why::NoStruggleWith => format!(
                "{at} holds a bead of seat {}; {action} can't contest another colour's point in this variant",
                state.bead(p).map_or(0, |s| s + 1)
            ),
            Why::StrugglesUsed => format!(
                "{at} holds another colour's bead, and you have used your struggles for this turn"
            ),
            Why::NotArrived => {
                format!(
                    "{at} holds a nutrient; you can mark it only from a bead of yours next to it"
                )
            }
            Why::TouchesOldBead => {
                format!("a new plant can't touch your existing beads; {at} is next to one")
            }
            Why::NotWithNewPlant => {
                format!(
                    "in this variant the beads of a new plant must touch each other; {at} touches none of this turn's"
                )
            }
            Why::NoOwnNeighbour => {
                format!("a bud must grow off your plant; {at} touches none of your beads")
            }
            Why::BudTouches(n) => format!(
                "a bud must touch at least 2 {}beads; {at} touches {n}",
                if state.rules().growth.buds_touch == BudsTouch::Own {
                    "of your "
                } else {
                    ""
                }
            ),
            Why::SimpleTouches(0) => {
                format!(
                    "simple growth extends the end of one of your roots; {at} touches none of your beads"
                )
            }
            Why::SimpleTouches(n) => {
                format!("a simple-growth bead may touch only one of your beads; {at} touches {n}")
            }
            Why::NotAnEnd(n) => format!(
                "simple growth extends the very end of a root; {} is not an end (it touches {} of your beads)",
                g.name(n),
                state.own_around(state.turn_seat(), n).count()
            ),
            Why::NotFromLast(last) => format!(
                "simple growth extends one path: continue from {}, the bead you placed last",
                g.name(last)
            ),
            Why::NotPlacing => format!("{action} places no beads"),
        }
    }
}

impl State {
    /// Whether seat `s`, placing for `action` with `struggles` struggles used
    /// this turn, may put a bead on `p`, and what that does.
    #[inline(always)]
    pub(crate) fn judge(
        &self,
        s: Seat,
        action: Growth,
        struggles: u8,
        p: Point,
    ) -> Result<PlaceKind, Why> {
        let cell = self.cells[p.index()];
        let kind = match cell.bead {
            OFF => return Err(Why::OffBoard),
            0 if cell.nuts > 0 => PlaceKind::Mark,
            0 => PlaceKind::Plain,
            b if b == s + 1 => return Err(Why::OwnBead),
            b => {
                if !self.rules.severs_with(action) {
                    return Err(Why::NoStruggleWith);
                }
                if struggles >= self.rules.severing.per_turn {
                    return Err(Why::StrugglesUsed);
                }
                PlaceKind::Attack(b - 1)
            }
        };
        let own = cell.adj[usize::from(s)];
        if kind == PlaceKind::Mark && own == 0 {
            return Err(Why::NotArrived);
        }
        match action {
            Growth::NewPlant => {
                let this_roll = cell.turn_adj;
                if own > this_roll {
                    return Err(Why::TouchesOldBead);
                }
                if self.rules.growth.new_plant_connected
                    && !self.placed.is_empty()
                    && this_roll == 0
                {
                    return Err(Why::NotWithNewPlant);
                }
            }
            Growth::Buds => {
                if own == 0 {
                    return Err(Why::NoOwnNeighbour);
                }
                let touch = match self.rules.growth.buds_touch {
                    BudsTouch::Own => own,
                    BudsTouch::Any => cell.adj_all,
                };
                if touch < 2 {
                    return Err(Why::BudTouches(touch));
                }
            }
            Growth::SimpleGrowth => {
                if own != 1 {
                    return Err(Why::SimpleTouches(own));
                }
                let n = self.own_around(s, p).next().expect("one own neighbour");
                if self.adj_of(s, n) > 1 {
                    return Err(Why::NotAnEnd(n));
                }
                if self.rules.growth.simple_growth_path == SimpleGrowthPath::OnePath
                    && let Some(&last) = self.placed.last()
                    && last != n
                {
                    return Err(Why::NotFromLast(last));
                }
            }
            Growth::Sunbathe => return Err(Why::NotPlacing),
        }
        Ok(kind)
    }

    /// What a placement on `p` does, once it is known to be legal.
    #[inline]
    pub(crate) fn place_kind(&self, p: Point) -> PlaceKind {
        let cell = self.cells[p.index()];
        match cell.bead {
            0 if cell.nuts > 0 => PlaceKind::Mark,
            0 => PlaceKind::Plain,
            b => PlaceKind::Attack(b - 1),
        }
    }

    /// Visit every point where `action` could put a bead of the current seat:
    /// the neighbours of the last bead when simple growth continues a path,
    /// the neighbours of the seat's beads for buds and simple growth, every
    /// point for a new plant. A point may be visited more than once; `visit`
    /// returns `true` to stop.
    #[inline(always)]
    fn reachable(&self, action: Growth, mut visit: impl FnMut(Point) -> bool) {
        let g = &self.grid;
        match action {
            Growth::NewPlant => {
                for p in g.all() {
                    if visit(p) {
                        return;
                    }
                }
            }
            Growth::Sunbathe => {}
            Growth::Buds | Growth::SimpleGrowth => {
                let one_path = action == Growth::SimpleGrowth
                    && self.rules.growth.simple_growth_path == SimpleGrowthPath::OnePath;
                let from: &[Point] = match self.placed.last() {
                    Some(last) if one_path => std::slice::from_ref(last),
                    _ => &self.players[usize::from(self.seat)].beads,
                };
                for &b in from {
                    // Simple growth only ever starts from an end (a bead with
                    // at most one neighbour of its colour).
                    if action == Growth::SimpleGrowth && self.adj_of(self.seat, b) > 1 {
                        continue;
                    }
                    for &d in g.offsets() {
                        if visit(Point((b.0 as i16 + d) as u16)) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Whether any plain or marking placement is legal, and if not, whether a
    /// struggle is: `(plain, struggle)`. One pass, next to the last bead first,
    /// then wherever the action can reach; it stops at the first plain one.
    pub(crate) fn placement_options(&self, action: Growth, struggles: u8) -> (bool, bool) {
        let s = self.seat;
        let mut attack = false;
        if let Some(&last) = self.placed.last() {
            for &d in self.grid.offsets() {
                let p = Point((last.0 as i16 + d) as u16);
                match self.judge(s, action, struggles, p) {
                    Ok(PlaceKind::Attack(_)) => attack = true,
                    Ok(_) => return (true, attack),
                    Err(_) => {}
                }
            }
        }
        let mut plain = false;
        self.reachable(action, |p| {
            match self.judge(s, action, struggles, p) {
                Ok(PlaceKind::Attack(_)) => attack = true,
                Ok(_) => plain = true,
                Err(_) => {}
            }
            plain
        });
        (plain, attack)
    }

    /// Every point where the current seat may place for `action`.
    pub(crate) fn legal_placements(&self, action: Growth, struggles: u8) -> PointSet {
        let s = self.seat;
        let mut set = PointSet::new();
        self.reachable(action, |p| {
            if self.judge(s, action, struggles, p).is_ok() {
                set.insert(p);
            }
            false
        });
        set
    }

    /// A legal placement drawn by reservoir sampling over every point the
    /// action can reach: no list is built. Points reachable from several beads
    /// count several times, so the draw leans toward well-connected points.
    /// With `or_pass`, passing is one more candidate, drawn as `None`.
    pub(crate) fn scan_placement(
        &self,
        action: Growth,
        struggles: u8,
        or_pass: bool,
        dice: &mut SeededDice,
    ) -> Option<Point> {
        let s = self.seat;
        let mut seen = u32::from(or_pass);
        let mut chosen = None;
        self.reachable(action, |p| {
            if self.judge(s, action, struggles, p).is_ok() {
                seen += 1;
                if dice.below(seen) == 0 {
                    chosen = Some(p);
                }
            }
            false
        });
        chosen
    }

    /// A random legal plain, marking or struggle placement, found by trying
    /// random points where the action can reach; `None` if the tries fail (the
    /// caller then draws from the full list).
    pub(crate) fn sample_placement(
        &self,
        action: Growth,
        struggles: u8,
        dice: &mut SeededDice,
    ) -> Option<Point> {
        const TRIES: usize = 24;
        let s = self.seat;
        let g = &self.grid;
        let beads = &self.players[usize::from(s)].beads;
        let one_path = action == Growth::SimpleGrowth
            && self.rules.growth.simple_growth_path == SimpleGrowthPath::OnePath
            && !self.placed.is_empty();
        for _ in 0..TRIES {
            let p = if action == Growth::NewPlant {
                let n = u32::from(g.size());
                let i = dice.below(n * n);
                g.point((i % n) as i32, (i / n) as i32).expect("in range")
            } else {
                let from = if one_path {
                    *self.placed.last().expect("non-empty")
                } else if beads.is_empty() {
                    return None;
                } else {
                    let b = beads[dice.below(beads.len() as u32) as usize];
                    if action == Growth::SimpleGrowth && self.adj_of(s, b) > 1 {
                        continue; // not an end: nothing can grow from it
                    }
                    b
                };
                let d = g.offsets()[dice.below(8) as usize];
                Point((from.0 as i16 + d) as u16)
            };
            if self.judge(s, action, struggles, p).is_ok() {
                return Some(p);
            }
        }
        None
    }

    /// Root strength of the bead on `p`: the most non-branching beads traced
    /// from it, itself included, along its root until a branch (a bead that
    /// touches three or more beads of its colour) or the root's end. A
    /// branching bead has strength 0.
    pub fn strength(&self, p: Point) -> u32 {
        let Some(s) = self.bead(p) else { return 0 };
        if self.adj_of(s, p) >= 3 {
            return 0;
        }
        let mut best = 0;
        for n in self.own_around(s, p) {
            best = best.max(self.run(s, p, n));
        }
        1 + best
    }

    /// Non-branching beads from `cur` onward, coming from `from`.
    fn run(&self, s: Seat, from: Point, cur: Point) -> u32 {
        let (start, mut prev, mut cur) = (from, from, cur);
        let mut count = 0;
        loop {
            if self.adj_of(s, cur) >= 3 {
                return count;
            }
            count += 1;
            let next = self.own_around(s, cur).find(|&q| q != prev);
            match next {
                Some(q) if q != start => {
                    prev = cur;
                    cur = q;
                }
                _ => return count,
            }
        }
    }

    /// Strength of the attacking root at `p`: the strongest bead of seat `s`
    /// next to `p`.
    pub fn attack_strength(&self, s: Seat, p: Point) -> u32 {
        self.own_around(s, p)
            .map(|b| self.strength(b))
            .max()
            .unwrap_or(0)
    }
}
