//! How a run (or any command) fails: the text for stderr and the exit code.

use super::console;

/// Exit codes shared by every command.
pub mod exit {
    /// Everything checked out.
    pub const OK: u8 = 0;
    /// A variant (or other input) is invalid.
    pub const INVALID: u8 = 1;
    /// Bad command line, or a file that could not be read.
    pub const USAGE: u8 = 2;
    /// Ended by a Ctrl-C (SIGINT), the shell's code for it.
    pub const INTERRUPTED: u8 = 130;
}

/// How a command failed: the text for stderr, complete with its `error:`
/// lines, and the exit code.
#[derive(Debug)]
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl Failure {
    /// The input was read but is wrong (exit 1); `message` is printed as is.
    pub fn invalid(message: impl Into<String>) -> Failure {
        Failure {
            code: exit::INVALID,
            message: message.into(),
        }
    }

    /// A file could not be read or written (exit 2); printed as is.
    pub fn io(message: impl Into<String>) -> Failure {
        Failure {
            code: exit::USAGE,
            message: message.into(),
        }
    }

    /// The input was read but is wrong (exit 1), printed after `error: `.
    pub fn invalid_line(message: impl std::fmt::Display) -> Failure {
        Failure::invalid(format!("error: {message}"))
    }

    /// A wrong command line or an output that cannot be written (exit 2):
    /// printed after `error: `.
    pub fn usage(message: impl std::fmt::Display) -> Failure {
        Failure::io(format!("error: {message}"))
    }

    /// Print the failure on stderr and give the exit code.
    pub fn report(self) -> u8 {
        if !self.message.is_empty() {
            console::err(&format!("{}\n", self.message));
        }
        self.code
    }
}

impl From<crate::sim::SimError> for Failure {
    fn from(e: crate::sim::SimError) -> Failure {
        let code = match e {
            crate::sim::SimError::Config(_) | crate::sim::SimError::Output(_) => exit::USAGE,
            _ => exit::INVALID,
        };
        Failure {
            code,
            message: format!("error: {e}"),
        }
    }
}
