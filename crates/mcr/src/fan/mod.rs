//! The fan catalogue: the table of the 81 fans (points, names, what each excludes) and the
//! multiset type of a scored hand. Detection and the exclusion pass are scoring
//! ([`mod@crate::score`]).

mod counts;
mod table;

pub use counts::FanCounts;
pub(crate) use counts::{EXCLUDERS, EXCLUDES_LATER, PASS_ORDER, PASS_POINTS, bit};
pub use table::{FAN_COUNT, FAN_TABLE, Fan, FanSpec};
