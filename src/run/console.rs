//! What a run says to a person on stderr: notes (the seed drawn, a file
//! written) left out under `--quiet`, warnings and errors always, a
//! progress bar or a status line redrawn in place on a terminal only. All
//! of it passes [`terminal_safe`], so text read from files or other
//! programs cannot steer the terminal.

use std::io::{IsTerminal, Write as _};
use std::sync::atomic::{AtomicBool, Ordering};

static QUIET: AtomicBool = AtomicBool::new(false);

/// Record `-q/--quiet` for every note of the program.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `-q/--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// A note for a person on stderr (the seed drawn, a file written), left out
/// under `--quiet`.
pub fn note(text: &str) {
    if !quiet() {
        err(text);
    }
}

/// Write to stderr, ignoring a failure: there is nowhere left to say it.
pub fn err(text: &str) {
    err_raw(&terminal_safe(text));
}

/// [`err`] without [`terminal_safe`]: for the program's own control
/// sequences (a progress line cleared with `\r\x1b[2K`), never for text
/// that holds anything read.
pub fn err_raw(text: &str) {
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// The note of a seed: on stderr, only for a seed drawn at random (a seed
/// given is in the command line already), so that the run can be repeated;
/// stdout holds the report alone (whose heading names the seed too).
pub fn note_seed(seed: u64, given: bool) {
    if !given {
        note(&format!(
            "seed: {seed} (drawn at random; --seed {seed} repeats this run)\n"
        ));
    }
}

/// A progress bar on stderr (indicatif), updated after every game, with
/// the rate and the time left; drawn only when stderr is a terminal and
/// `--quiet` is not given.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    pub fn new(total: u64, label: &str) -> Progress {
        if !stderr_is_terminal() || quiet() {
            return Progress { bar: None };
        }
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(total),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{prefix} [{bar:25}] {pos}/{len} games, {rate}, {eta} left",
        ) {
            let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1} games/s", state.per_sec());
            };
            bar.set_style(style.progress_chars("#>-").with_key("rate", rate));
        }
        bar.set_prefix(label.to_string());
        Progress { bar: Some(bar) }
    }

    pub fn update(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// One line of stderr redrawn in place (a ladder's pair, a tune's round),
/// on a terminal only, and not under `--quiet`.
pub struct Status {
    on: bool,
}

impl Status {
    /// A status line, drawn when stderr is a terminal and `--quiet` is
    /// not given (like the progress bar).
    pub fn new() -> Status {
        Status {
            on: stderr_is_terminal() && !quiet(),
        }
    }

    /// Whether the line is drawn.
    pub fn on(&self) -> bool {
        self.on
    }

    /// Draw `text` over the line: `clear` wipes what was there first.
    pub fn show(&self, text: &str, clear: bool) {
        if self.on {
            err_raw(if clear { "\r\x1b[2K" } else { "\r" });
            err(text);
        }
    }

    /// Wipe the line, once the work is done.
    pub fn clear(&self) {
        if self.on {
            err_raw("\r\x1b[2K");
        }
    }
}

impl Default for Status {
    fn default() -> Self {
        Status::new()
    }
}

/// `text` with every control character that could steer a terminal shown
/// as an escape (`\x1b`, `\x07`, `\r`, `\u{202e}`): text from variant files,
/// records, diagnostics and other programs' answers reaches stdout and
/// stderr only through this, so a variant named `"\x1b]0;pwned\x07"` cannot
/// retitle the window, move the cursor or hide a line. Kept: newlines,
/// tabs, and colour codes (`ESC [ digits;... m`, SGR) except "conceal"
/// (8), which could hide text; an escape sequence that is not a colour is
/// shown escaped.
pub fn terminal_safe(text: &str) -> std::borrow::Cow<'_, str> {
    fn steers(c: char) -> bool {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    }
    /// The length of a colour code (SGR) at the start of `s`, if it is one.
    fn colour_code(s: &str) -> Option<usize> {
        let rest = s.strip_prefix("\x1b[")?;
        let params = &rest[..rest.find(|c: char| !(c.is_ascii_digit() || c == ';'))?];
        let concealed = params.split(';').any(|p| p == "8");
        (rest[params.len()..].starts_with('m') && !concealed).then_some(2 + params.len() + 1)
    }
    if !text.chars().any(steers) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len() + 16);
    let mut i = 0;
    while let Some(c) = text[i..].chars().next() {
        if c == '\x1b'
            && let Some(n) = colour_code(&text[i..])
        {
            safe.push_str(&text[i..i + n]);
            i += n;
            continue;
        }
        if steers(c) {
            let code = u32::from(c);
            if code < 0x100 {
                safe.push_str(&format!("\\x{code:02x}"));
            } else {
                safe.push_str(&format!("\\u{{{code:x}}}"));
            }
        } else {
            safe.push(c);
        }
        i += c.len_utf8();
    }
    std::borrow::Cow::Owned(safe)
}
