//! Sweeping one integer key of a variant over a range.
