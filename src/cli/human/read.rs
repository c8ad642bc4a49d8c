//! Reading what a person types: a line after a prompt, from a terminal
//! with line editing and history, or plainly from a pipe, within a size.

use std::io::{BufRead, Write};

use roots::games::Registered;

use crate::cli::{outln, outp};

use super::{Console, MAX_TYPED_LINE};

impl<G: Registered> Console<G> {
    /// One line of input after a prompt; `None` at end of input. A line that
    /// is not UTF-8 or longer than [`MAX_TYPED_LINE`] bytes is refused with a
    /// message and read as an empty line (the prompt comes again); only its
    /// first bytes are kept in memory, whatever its length.
    pub(super) fn read(&mut self, prompt: &str) -> Option<String> {
        if self.editor.is_some() {
            return self.edit(prompt);
        }
        outp!("{prompt}");
        let _ = std::io::stdout().flush();
        let mut bytes = Vec::new();
        let mut len = 0usize;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            if buf.is_empty() {
                break;
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..=i], true),
                None => (buf, false),
            };
            let n = chunk.len();
            let room = (MAX_TYPED_LINE + 1).saturating_sub(bytes.len());
            bytes.extend_from_slice(&chunk[..n.min(room)]);
            len += n;
            self.input.consume(n);
            if done {
                break;
            }
        }
        if len == 0 {
            outln!();
            return None;
        }
        let text = match std::str::from_utf8(&bytes) {
            _ if bytes.len() > MAX_TYPED_LINE => {
                outln!(
                    "\nrefused: a line of {len} bytes; a typed line has at most {MAX_TYPED_LINE}"
                );
                return Some(String::new());
            }
            Ok(text) => text,
            Err(e) => {
                outln!(
                    "\nrefused: the line is not UTF-8 text (an invalid byte at byte {}); type it again",
                    e.valid_up_to() + 1
                );
                return Some(String::new());
            }
        };
        let line = text.trim().to_string();
        if self.echo {
            outln!("{line}");
        }
        Some(line)
    }

    /// One line typed at a terminal, with line editing (cursor keys,
    /// backspace, Ctrl-A/E ...) and the session's history (Up, Down). The
    /// prompt's lines but the last are printed first (the editor redraws
    /// one line). Ctrl-D on an empty line is the end of input; Ctrl-C stops
    /// the program as an interrupt would without the editor (exit 130): the
    /// record holds every event so far and resumes.
    fn edit(&mut self, prompt: &str) -> Option<String> {
        use rustyline::error::ReadlineError;
        let (head, last) = match prompt.rfind('\n') {
            Some(i) => prompt.split_at(i + 1),
            None => ("", prompt),
        };
        outp!("{head}");
        let _ = std::io::stdout().flush();
        let editor = self.editor.as_mut()?;
        match editor.readline(last) {
            Ok(line) => {
                if line.len() > MAX_TYPED_LINE {
                    outln!(
                        "refused: a line of {} bytes; a typed line has at most {MAX_TYPED_LINE}",
                        line.len()
                    );
                    return Some(String::new());
                }
                let line = line.trim().to_string();
                if !line.is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                }
                Some(line)
            }
            Err(ReadlineError::Interrupted) => {
                outln!("^C");
                roots::bots::end_external_players();
                std::process::exit(crate::cli::output::finish(130).into());
            }
            Err(ReadlineError::Eof) => {
                outln!();
                None
            }
            Err(e) => {
                outln!("cannot read the terminal ({e}): reading plain lines");
                self.editor = None;
                self.read(prompt)
            }
        }
    }
}
