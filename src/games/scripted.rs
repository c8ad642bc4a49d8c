//! The moves of a game state whose house rules run as scripts, written once
//! for the games whose state carries its script session in a field
//! `script` ([`script_moves!`](crate::script_moves)).

/// `script_moves!(apply)` in a game's `impl GameState for State`:
/// `legal_actions`, `play`, `play_unchecked` and `random_action` of a state
/// whose house rules run through [`crate::script::session`]. Each makes the
/// rules' own move from the state's inherent methods (`legal_plain`,
/// `check`, the `apply` named, `random_plain`) and, when the state carries a
/// script session (`self.script`), lets the session filter, refuse or play
/// it (`filter_legal`, `check_allowed`, `play_scripted`, `random_allowed`).
///
/// `script_moves!(apply, no_chance)` adds `roll` for a game without chance
/// nodes: refused, as the game is over or waits for a decision.
///
/// `script_moves!(apply, no_chance, own)` lets the state's own methods
/// `filter_legal`, `check_allowed` and `random_allowed` filter, refuse or
/// draw the moves (a game that keeps its house rules' table typed for its
/// `ctx`: Branches & Twigs & Thorns), instead of the session's.
#[macro_export]
macro_rules! script_moves {
    ($apply:ident, no_chance, own) => {
        $crate::script_moves!(
            @moves $apply,
            Self::filter_legal,
            Self::check_allowed,
            Self::random_allowed
        );
        $crate::script_moves!(@roll);
    };
    ($apply:ident, no_chance) => {
        $crate::script_moves!($apply);
        $crate::script_moves!(@roll);
    };
    (@roll) => {
        fn roll(&mut self, _face: u8) -> Result<(), $crate::core::protocol::Refusal> {
            Err(match $crate::core::protocol::GameState::next(self) {
                $crate::core::protocol::Next::Decide(seat) => {
                    $crate::core::protocol::Refusal::ExpectedAction { seat }
                }
                _ => $crate::core::protocol::Refusal::GameOver,
            })
        }
    };
    // The moves, filtered, refused or drawn through `$filter`, `$check`
    // and `$random` (the session's functions, or the state's own).
    (@moves $apply:ident, $filter:path, $check:path, $random:path) => {
        fn legal_actions(&self, out: &mut Vec<Self::Action>) {
            self.legal_plain(out);
            if self.script.is_some() {
                $filter(self, out);
            }
        }

        fn play(&mut self, action: Self::Action) -> Result<(), $crate::core::protocol::Refusal> {
            self.check(action)?;
            if self.script.is_some() {
                $check(self, action)?;
            }
            $crate::core::protocol::GameState::play_unchecked(self, action);
            Ok(())
        }

        fn play_unchecked(&mut self, action: Self::Action) {
            if self.script.is_some() {
                return self.play_scripted(action);
            }
            self.$apply(action);
        }

        fn random_action(&self, dice: &mut $crate::core::dice::SeededDice) -> Self::Action {
            let first = self.random_plain(dice);
            if self.script.is_some() {
                return $random(self, first, dice);
            }
            first
        }
    };
    ($apply:ident) => {
        $crate::script_moves!(
            @moves $apply,
            $crate::script::session::filter_legal,
            $crate::script::session::check_allowed,
            $crate::script::session::random_allowed
        );
    };
}
