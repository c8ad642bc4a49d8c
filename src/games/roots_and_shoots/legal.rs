//! Where a bead may go: the placement rules of the four growth actions, root
//! strength for struggles, and the fast paths random play needs.
//!
//! `State::judge` is the one place the placement rules live. It returns a
//! small `Copy` [`Why`] on refusal, so the hot path never builds a string; the
//! referee turns a `Why` into a sentence with [`Why::explain`].

use crate::core::dice::SeededDice;
use crate::core::geometry::{Point, PointSet};
use crate::core::protocol::Seat;
use crate::games::roots_and_shoots::rules::{BudsTouch, Growth, SimpleGrowthPath};
use crate::games::roots_and_shoots::state::{Cell, MAX_SEATS, OFF, State};

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
                "{at} holds a bead of seat {}; {} can't contest another colour's point in this variant",
                state.bead(p).map_or(0, |s| s + 1),
                action.words()
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

    /// What the fast paths need to know about the roll being placed, read
    /// once rather than at every point.
    #[inline(always)]
    fn roll_ctx(&self, action: Growth, struggles: u8) -> RollCtx {
        let s = self.seat;
        // A seat is below MAX_SEATS; saying so once lets the compiler drop
        // the bounds check of `adj[seat]` at every point tried.
        assert!(usize::from(s) < MAX_SEATS);
        RollCtx {
            seat: usize::from(s),
            bead: s + 1,
            // `&`, not `&&`: no branch on the (random) action.
            attack: self.severs[action as usize] & (struggles < self.rules.severing.per_turn),
            touch_any: self.rules.growth.buds_touch == BudsTouch::Any,
            connected: self.rules.growth.new_plant_connected && !self.placed.is_empty(),
            struggles,
        }
    }

    /// [`State::judge`] for a new plant, without the reason: `Some(kind)` when
    /// the current seat may place on `p`.
    #[inline(always)]
    fn fits_new_plant(&self, c: &RollCtx, p: Point) -> Option<PlaceKind> {
        let cell = &self.cells[p.index()];
        let this_roll = cell.turn_adj;
        if cell.adj[c.seat] > this_roll || (c.connected && this_roll == 0) {
            return None;
        }
        c.kind(cell)
    }

    /// [`State::judge`] for buds at `p`, a neighbour of one of the seat's beads.
    #[inline(always)]
    fn fits_bud(&self, c: &RollCtx, p: Point) -> Option<PlaceKind> {
        let cell = &self.cells[p.index()];
        let own = cell.adj[c.seat];
        let touch = if c.touch_any { cell.adj_all } else { own };
        if own == 0 || touch < 2 {
            return None;
        }
        c.kind(cell)
    }

    /// [`State::judge`] for simple growth at `p`, a neighbour of `from`, an end
    /// of the seat's roots that the path rule allows to grow (the caller
    /// checks both): `p` must touch no other bead of the seat.
    #[inline(always)]
    fn fits_simple(&self, c: &RollCtx, p: Point) -> Option<PlaceKind> {
        let cell = &self.cells[p.index()];
        if cell.adj[c.seat] != 1 {
            return None;
        }
        c.kind(cell)
    }

    /// `kind`, a fast path's answer for `p`; debug builds assert it is
    /// [`State::judge`]'s.
    #[inline(always)]
    fn checked(
        &self,
        action: Growth,
        c: &RollCtx,
        p: Point,
        kind: Option<PlaceKind>,
    ) -> Option<PlaceKind> {
        debug_assert_eq!(
            kind,
            self.judge(self.seat, action, c.struggles, p).ok(),
            "fast path and judge disagree at {}",
            self.grid.name(p)
        );
        kind
    }

    /// Whether simple growth may grow from the seat's bead `b`: only a root's
    /// end (a bead touching at most one bead of its colour) grows.
    #[inline(always)]
    fn grows_simply(&self, c: &RollCtx, b: Point) -> bool {
        self.cells[b.index()].adj[c.seat] <= 1
    }

    /// The beads simple growth and buds grow from: only the last bead placed
    /// when simple growth continues one path, else every bead of the seat.
    #[inline(always)]
    fn growth_sources(&self, action: Growth) -> &[Point] {
        let one_path = action == Growth::SimpleGrowth
            && self.rules.growth.simple_growth_path == SimpleGrowthPath::OnePath;
        match self.placed.last() {
            Some(last) if one_path => std::slice::from_ref(last),
            _ => &self.players[usize::from(self.seat)].beads,
        }
    }

    /// Visit every point where `action` could put a bead of the current seat,
    /// with what a placement there would do (`None`: illegal): the neighbours
    /// of the seat's beads (or of the last bead, when simple growth continues
    /// one path) for buds and simple growth, every point for a new plant. A
    /// point may be visited more than once; `visit` returns `true` to stop.
    /// The action is matched once, outside the loops.
    #[inline(always)]
    fn each_candidate(
        &self,
        action: Growth,
        c: &RollCtx,
        mut visit: impl FnMut(Point, Option<PlaceKind>) -> bool,
    ) {
        let g = &self.grid;
        let check = |p: Point, kind| self.checked(action, c, p, kind);
        match action {
            Growth::NewPlant => {
                for p in g.all() {
                    if visit(p, check(p, self.fits_new_plant(c, p))) {
                        return;
                    }
                }
            }
            Growth::Buds => {
                for &b in self.growth_sources(action) {
                    for &d in g.offsets() {
                        let p = b.offset(d);
                        if visit(p, check(p, self.fits_bud(c, p))) {
                            return;
                        }
                    }
                }
            }
            Growth::SimpleGrowth => {
                for &b in self.growth_sources(action) {
                    if !self.grows_simply(c, b) {
                        continue;
                    }
                    for &d in g.offsets() {
                        let p = b.offset(d);
                        if visit(p, check(p, self.fits_simple(c, p))) {
                            return;
                        }
                    }
                }
            }
            Growth::Sunbathe => {}
        }
    }

    /// Whether any plain or marking placement is legal, and if not, whether a
    /// struggle is: `(plain, struggle)`. One pass, next to the last bead first,
    /// then wherever the action can reach; it stops at the first plain one.
    pub(crate) fn placement_options(&self, action: Growth, struggles: u8) -> (bool, bool) {
        let c = self.roll_ctx(action, struggles);
        let mut attack = false;
        let mut plain = false;
        let mut note = |kind: Option<PlaceKind>| {
            match kind {
                Some(PlaceKind::Attack(_)) => attack = true,
                Some(_) => plain = true,
                None => {}
            }
            plain
        };
        // Next to the last bead first: where a roll usually goes on.
        // (One loop per action: the action is matched outside it.)
        if let Some(&last) = self.placed.last() {
            let offsets = self.grid.offsets();
            let found = match action {
                Growth::NewPlant => offsets
                    .iter()
                    .any(|&d| note(self.fits_new_plant(&c, last.offset(d)))),
                Growth::Buds => offsets
                    .iter()
                    .any(|&d| note(self.fits_bud(&c, last.offset(d)))),
                Growth::SimpleGrowth if self.grows_simply(&c, last) => offsets
                    .iter()
                    .any(|&d| note(self.fits_simple(&c, last.offset(d)))),
                _ => false,
            };
            if found {
                return (true, attack);
            }
        }
        self.each_candidate(action, &c, |_, kind| note(kind));
        (plain, attack)
    }

    /// Every point where the current seat may place for `action`.
    pub(crate) fn legal_placements(&self, action: Growth, struggles: u8) -> PointSet {
        let c = self.roll_ctx(action, struggles);
        let mut set = PointSet::new();
        if action == Growth::NewPlant && c.connected {
            // A connected new plant's next bead touches a bead of this roll:
            // only their neighbours are tried, not the whole board (the set,
            // not the order of trying, is the answer). Debug builds check
            // against the scan of every point.
            for &b in &self.placed {
                for &d in self.grid.offsets() {
                    let p = b.offset(d);
                    if self
                        .checked(action, &c, p, self.fits_new_plant(&c, p))
                        .is_some()
                    {
                        set.insert(p);
                    }
                }
            }
            debug_assert_eq!(set, self.scanned_placements(action, &c));
            return set;
        }
        if action == Growth::NewPlant {
            self.new_plant_points(&c, &mut set);
            debug_assert_eq!(set, self.scanned_placements(action, &c));
            return set;
        }
        self.scanned_placements(action, &c)
    }

    /// Every point where the current seat may place for `action`, from the
    /// scan of every candidate point (what the shortcuts above must equal).
    fn scanned_placements(&self, action: Growth, c: &RollCtx) -> PointSet {
        let mut set = PointSet::new();
        self.each_candidate(action, c, |p, kind| {
            if kind.is_some() {
                set.insert(p);
            }
            false
        });
        set
    }

    /// Every point of the board where a new plant (not one that must touch
    /// this roll's beads) may go, into `set`: [`State::fits_new_plant`] at
    /// every point, worked out the other way round, from the few points that
    /// are not legal. Every point of the board, less the seat's beads, the
    /// points around its beads of earlier turns (a new plant touches no old
    /// bead), the empty points with a nutrient and no bead of the seat around
    /// (a nutrient is marked only from an own bead next to it, which can only
    /// be one of this roll), and the other colours' beads unless they may be
    /// contested.
    #[inline]
    fn new_plant_points(&self, c: &RollCtx, set: &mut PointSet) {
        debug_assert!(!c.connected);
        let g = &self.grid;
        let (size, stride) = (usize::from(g.size()), g.stride());
        let seat = c.seat;
        for y in 0..size {
            set.insert_run(Point(((y + 1) * stride + 1) as u16), size);
        }
        for (s, player) in self.players.iter().enumerate() {
            if s == seat {
                // The seat's beads of earlier rolls and the points around
                // them come out a word at a time.
                let mut old = PointSet::new();
                for &b in &player.beads {
                    set.remove(b);
                    if !self.placed.contains(&b) {
                        old.insert(b);
                    }
                }
                set.remove_all(&old.around(stride));
            } else if !c.attack {
                for &b in &player.beads {
                    set.remove(b);
                }
            }
        }
        for n in &self.nutrients {
            let cell = &self.cells[n.point.index()];
            if cell.bead == 0 && cell.adj[seat] == 0 {
                set.remove(n.point);
            }
        }
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
        let c = self.roll_ctx(action, struggles);
        let mut seen = u32::from(or_pass);
        let mut chosen = None;
        self.each_candidate(action, &c, |p, kind| {
            if kind.is_some() {
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
        let c = self.roll_ctx(action, struggles);
        let g = &self.grid;
        let check = |p: Point, kind| self.checked(action, &c, p, kind).map(|_| p);
        let beads = &self.players[c.seat].beads;
        match action {
            Growth::NewPlant => {
                let n = u32::from(g.size());
                for _ in 0..TRIES {
                    let i = dice.below(n * n);
                    let p = g.nth_point(i);
                    if let Some(p) = check(p, self.fits_new_plant(&c, p)) {
                        return Some(p);
                    }
                }
            }
            Growth::Buds => {
                if beads.is_empty() {
                    return None;
                }
                for _ in 0..TRIES {
                    let b = beads[dice.below(beads.len() as u32) as usize];
                    let p = b.offset(g.offsets()[dice.below(8) as usize]);
                    if let Some(p) = check(p, self.fits_bud(&c, p)) {
                        return Some(p);
                    }
                }
            }
            Growth::SimpleGrowth => {
                let one_path = self.rules.growth.simple_growth_path == SimpleGrowthPath::OnePath;
                match self.placed.last() {
                    Some(&last) if one_path => {
                        let grows = self.grows_simply(&c, last);
                        for _ in 0..TRIES {
                            let p = last.offset(g.offsets()[dice.below(8) as usize]);
                            if grows && let Some(p) = check(p, self.fits_simple(&c, p)) {
                                return Some(p);
                            }
                        }
                    }
                    _ => {
                        if beads.is_empty() {
                            return None;
                        }
                        for _ in 0..TRIES {
                            let b = beads[dice.below(beads.len() as u32) as usize];
                            if !self.grows_simply(&c, b) {
                                continue; // not an end: nothing can grow from it
                            }
                            let p = b.offset(g.offsets()[dice.below(8) as usize]);
                            if let Some(p) = check(p, self.fits_simple(&c, p)) {
                                return Some(p);
                            }
                        }
                    }
                }
            }
            Growth::Sunbathe => {}
        }
        None
    }

    /// Root strength of the bead on `p`: the most non-branching beads traced
    /// from it, itself included, along its root until a branch (a bead that
    /// touches three or more beads of its colour) or the root's end. A
    /// branching bead has strength 0.
    pub fn strength(&self, p: Point) -> u32 {
        self.strength_upto(p, u32::MAX)
    }

    /// [`State::strength`] of the bead on `p`, counted no further than
    /// `cap` (at least 1): `strength(p).min(cap)`, without tracing a long
    /// root to its end. The evaluation counts strengths up to 6 only.
    pub fn strength_upto(&self, p: Point, cap: u32) -> u32 {
        debug_assert!(cap >= 1);
        if self.bead(p).is_none() {
            return 0;
        }
        let links = self.links(p);
        if links.count_ones() >= 3 {
            return 0;
        }
        let mut best = 0;
        let mut m = links;
        while m != 0 {
            if best + 1 >= cap {
                break;
            }
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            best = best.max(self.run_upto(p, k, cap - 1));
        }
        let strength = (1 + best).min(cap);
        debug_assert_eq!(strength, self.strength_traced(p).min(cap));
        strength
    }

    /// [`State::strength`] traced with the neighbours looked for (not the
    /// links kept in the cells): what debug builds check against.
    fn strength_traced(&self, p: Point) -> u32 {
        let Some(s) = self.bead(p) else { return 0 };
        if self.adj_of(s, p) >= 3 {
            return 0;
        }
        let run = |from: Point, cur: Point| {
            let (mut prev, mut cur, mut count) = (from, cur, 0);
            loop {
                let around = self.adj_of(s, cur);
                if around >= 3 {
                    return count;
                }
                count += 1;
                match self.own_around(s, cur).find(|&q| q != prev) {
                    Some(q) if around == 2 && q != from => (prev, cur) = (cur, q),
                    _ => return count,
                }
            }
        };
        1 + self.own_around(s, p).map(|n| run(p, n)).max().unwrap_or(0)
    }

    /// The run of non-branching beads of one colour from the neighbour of `start` in
    /// direction `k` (an index into [`Grid::offsets`]) on, away from
    /// `start` (a bead of the same colour), counted no further than `cap`;
    /// the links kept in the cells lead the way. Offsets `k` and `7 - k`
    /// are opposite, so a bead with two links goes on along the one that
    /// is not `7 - k`, the way it was reached.
    #[inline]
    fn run_upto(&self, start: Point, k: usize, cap: u32) -> u32 {
        let offsets = self.grid.offsets();
        let (mut k, mut cur) = (k, start.offset(offsets[k]));
        let mut count = 0;
        loop {
            if count >= cap {
                return count;
            }
            let links = self.links(cur);
            let around = links.count_ones();
            if around >= 3 {
                return count;
            }
            count += 1;
            if around <= 1 {
                return count; // a root's end: its one neighbour is behind
            }
            // Two links: the one that does not lead back.
            debug_assert!(links & 1 << (7 - k) != 0, "a link back");
            k = (links & !(1 << (7 - k))).trailing_zeros() as usize;
            let next = cur.offset(offsets[k]);
            if next == start {
                return count;
            }
            cur = next;
        }
    }

    /// Whether the attacking root of seat `s` at `p` is stronger than
    /// `defence`: [`State::attack_strength`] compared, stopping at the first
    /// bead strong enough.
    pub(crate) fn attack_beats(&self, s: Seat, p: Point, defence: u32) -> bool {
        let beats = self.own_around(s, p).any(|b| self.strength(b) > defence);
        debug_assert_eq!(beats, self.attack_strength(s, p) > defence);
        beats
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

/// The rules of one placement roll, read once for the fast paths.
#[derive(Clone, Copy)]
struct RollCtx {
    /// The placing seat, as an index, and as the bead value of its cells.
    seat: usize,
    bead: u8,
    /// Another colour's bead may be contested (the action severs and
    /// struggles are left).
    attack: bool,
    /// Buds count beads of any colour.
    touch_any: bool,
    /// A new plant must touch this roll's beads.
    connected: bool,
    /// Struggles used this turn (for the debug cross-check with `judge`).
    struggles: u8,
}

impl RollCtx {
    /// What a placement on `cell` does, judged by the point alone (the
    /// action's rule about neighbours is the caller's): `None` on the seat's
    /// own bead, the border, an uncontestable bead, or a nutrient no bead of the
    /// seat has reached.
    #[inline(always)]
    fn kind(&self, cell: &Cell) -> Option<PlaceKind> {
        match cell.bead {
            0 if cell.nuts == 0 => Some(PlaceKind::Plain),
            0 if cell.adj[self.seat] > 0 => Some(PlaceKind::Mark),
            0 => None,
            b if b == self.bead || b == OFF || !self.attack => None,
            b => Some(PlaceKind::Attack(b - 1)),
        }
    }
}
