//! The field numbers of the messages the fast path reads and writes, one module per message,
//! each constant named after its proto field (`score_hand_response::FANS` is `fans = 2`).
//!
//! Each module also lists its fields as `(name, number)` pairs ([`Message`]): the test below
//! checks every pair against the descriptor set compiled from `proto/`, and for the messages
//! the writer writes ([`WRITTEN`]) that the descriptor has no field the list lacks. A field
//! added to `ScoreHandResponse` in the proto therefore fails that test until the writer
//! ([`super::wire`]) handles it and it is listed here. The reader needs no such check: a
//! field it does not know sends the request to prost ([`super::query`]).

/// A message as the fast path knows it: its full name and every field it handles.
#[derive(Debug, Clone, Copy)]
pub struct Message {
    /// The full proto name (`mahjong.v1.ScoreHandResponse`).
    pub name: &'static str,
    /// `(field name, number)` of every field handled.
    pub fields: &'static [(&'static str, u32)],
}

/// One module of field numbers per message, and its [`Message`] as `KNOWN`.
macro_rules! message {
    ($(#[$doc:meta])* $module:ident = $full:literal { $($field:ident = $name:literal $number:literal),* $(,)? }) => {
        $(#[$doc])*
        pub mod $module {
            $(
                #[doc = concat!("`", $name, " = ", stringify!($number), "`.")]
                pub const $field: u32 = $number;
            )*
            /// The message and every field above.
            pub const KNOWN: $crate::api::fast::fields::Message = $crate::api::fast::fields::Message {
                name: $full,
                fields: &[$(($name, $number)),*],
            };
        }
    };
}

message! {
    /// `ScoreHandRequest` (read).
    score_hand_request = "mahjong.v1.ScoreHandRequest" {
        NOTATION = "notation" 1,
        HAND = "hand" 2,
        CONTEXT = "context" 3,
        RULESET = "ruleset" 4,
        VIEW = "view" 5,
    }
}

message! {
    /// `BatchScoreHandsRequest` (read).
    batch_score_hands_request = "mahjong.v1.BatchScoreHandsRequest" {
        REQUESTS = "requests" 1,
        DEFAULT_RULESET = "default_ruleset" 2,
        DEFAULT_VIEW = "default_view" 3,
    }
}

message! {
    /// `Hand` (read).
    hand = "mahjong.v1.Hand" {
        MELDS = "melds" 1,
        STANDING_TILES = "standing_tiles" 2,
        WINNING_TILE = "winning_tile" 3,
    }
}

message! {
    /// `Meld` (read).
    meld = "mahjong.v1.Meld" {
        KIND = "kind" 1,
        TILES = "tiles" 2,
        CLAIMED_FROM = "claimed_from" 3,
        PROMOTED = "promoted" 4,
        CLAIMED_TILE = "claimed_tile" 5,
    }
}

message! {
    /// `WinContext` (read).
    win_context = "mahjong.v1.WinContext" {
        SELF_DRAWN = "self_drawn" 1,
        ROBBING_KONG = "robbing_kong" 2,
        REPLACEMENT_DRAW = "replacement_draw" 3,
        LAST_TILE = "last_tile" 4,
        LAST_COPY = "last_copy" 5,
        SEAT_WIND = "seat_wind" 6,
        PREVALENT_WIND = "prevalent_wind" 7,
        FLOWER_COUNT = "flower_count" 8,
    }
}

message! {
    /// `ScoreHandResponse` (written). `violations` is written by the batch's `HandError`
    /// instead: a score has none.
    score_hand_response = "mahjong.v1.ScoreHandResponse" {
        OUTCOME = "outcome" 1,
        FANS = "fans" 2,
        FAN_TOTAL = "fan_total" 3,
        FLOWER_POINTS = "flower_points" 4,
        TOTAL = "total" 5,
        VIOLATIONS = "violations" 6,
        READING = "reading" 7,
        NOTATION = "notation" 8,
        RULESET = "ruleset" 9,
        GLYPHS = "glyphs" 10,
        RULES_FINGERPRINT = "rules_fingerprint" 11,
    }
}

message! {
    /// `FanLine` (written).
    fan_line = "mahjong.v1.FanLine" {
        FAN = "fan" 1,
        NAME_ZH = "name_zh" 2,
        NAME_EN = "name_en" 3,
        POINTS = "points" 4,
        COUNT = "count" 5,
        TOTAL_POINTS = "total_points" 6,
        ELEMENT_INDICES = "element_indices" 7,
        NAME_ZH_HANT = "name_zh_hant" 8,
    }
}

message! {
    /// `Reading` (written).
    reading = "mahjong.v1.Reading" {
        SHAPE = "shape" 1,
        ELEMENTS = "elements" 2,
    }
}

message! {
    /// `ReadingElement` (written).
    reading_element = "mahjong.v1.ReadingElement" {
        KIND = "kind" 1,
        TILES = "tiles" 2,
        DECLARED = "declared" 3,
        CLAIMED = "claimed" 4,
    }
}

message! {
    /// `Violation` (written).
    violation = "mahjong.v1.Violation" {
        CODE = "code" 1,
        FIELD = "field" 2,
        MESSAGE = "message" 3,
    }
}

message! {
    /// `BatchScoreHandsResponse` (written).
    batch_score_hands_response = "mahjong.v1.BatchScoreHandsResponse" {
        RESULTS = "results" 1,
    }
}

message! {
    /// `BatchScoreHandsResult` (written).
    batch_score_hands_result = "mahjong.v1.BatchScoreHandsResult" {
        SCORE = "score" 1,
        ERROR = "error" 2,
    }
}

message! {
    /// `HandError` (written).
    hand_error = "mahjong.v1.HandError" {
        REASON = "reason" 1,
        VIOLATIONS = "violations" 2,
    }
}

/// Every message the reader reads.
pub const READ: &[Message] = &[
    score_hand_request::KNOWN,
    batch_score_hands_request::KNOWN,
    hand::KNOWN,
    meld::KNOWN,
    win_context::KNOWN,
];

/// Every message the writer writes.
pub const WRITTEN: &[Message] = &[
    score_hand_response::KNOWN,
    fan_line::KNOWN,
    reading::KNOWN,
    reading_element::KNOWN,
    violation::KNOWN,
    batch_score_hands_response::KNOWN,
    batch_score_hands_result::KNOWN,
    hand_error::KNOWN,
];

#[cfg(test)]
mod tests {
    use prost_reflect::DescriptorPool;

    use super::{Message, READ, WRITTEN};
    use crate::api::pb::FILE_DESCRIPTOR_SET;

    fn pool() -> DescriptorPool {
        DescriptorPool::decode(FILE_DESCRIPTOR_SET).expect("the descriptor set decodes")
    }

    /// Every `(name, number)` of `message` is a field of that number in the descriptor.
    fn check_numbers(pool: &DescriptorPool, message: &Message) {
        let descriptor = pool
            .get_message_by_name(message.name)
            .unwrap_or_else(|| panic!("{} is not in the descriptor set", message.name));
        for &(name, number) in message.fields {
            let field = descriptor
                .get_field_by_name(name)
                .unwrap_or_else(|| panic!("{}.{name} is not in the descriptor set", message.name));
            assert_eq!(
                field.number(),
                number,
                "{}.{name} is field {} in the proto, {number} in the fast path",
                message.name,
                field.number()
            );
        }
    }

    #[test]
    fn every_field_number_is_the_proto_one() {
        let pool = pool();
        for message in READ.iter().chain(WRITTEN) {
            check_numbers(&pool, message);
        }
    }

    #[test]
    fn the_writer_handles_every_field_of_what_it_writes() {
        let pool = pool();
        for message in WRITTEN {
            let descriptor = pool
                .get_message_by_name(message.name)
                .unwrap_or_else(|| panic!("{} is not in the descriptor set", message.name));
            for field in descriptor.fields() {
                assert!(
                    message.fields.iter().any(|&(name, _)| name == field.name()),
                    "{}.{} (field {}) is in the proto but the fast path's writer does not \
                     handle it: write it in src/api/fast/wire.rs and list it in fields.rs",
                    message.name,
                    field.name(),
                    field.number()
                );
            }
        }
    }
}
