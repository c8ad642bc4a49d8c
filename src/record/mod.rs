//! Game records: a versioned JSON Lines file of a game, written event by
//! event as the game is played and replayed through the same engine calls.
//!
//! * [`mod@format`]: the header and event lines, and the variant hash;
//! * [`reader`]: reading a file within limits into a [`RawRecord`];
//! * [`writer`]: appending to a record, flushed after every event.
//!
//! Replaying the events (checking that they make a legal game) is the job of
//! [`crate::referee::Referee`]. The format is described in `docs/records.md`.

pub mod format;
pub mod reader;
pub mod writer;

pub use format::{DiceMode, Event, FORMAT_TAG, Header, VERSION, fnv1a64, utc_now, variant_hash};
pub use reader::{
    MAX_EVENTS, MAX_LINE_BYTES, MAX_RECORD_BYTES, PartialTail, RawRecord, ReadError, RecordError,
};
pub use writer::{RecordLock, RecordWriter};
