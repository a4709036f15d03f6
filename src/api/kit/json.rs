//! proto3 JSON for the `mahjong.v1` messages, through prost-reflect and the descriptor set.
//!
//! Requests are read with the proto3 JSON rules (lowerCamelCase or proto field names, enums by
//! name or number, unknown fields rejected). Responses are written with every field present,
//! default values included (`"fanTotal": 0`), and enums by name.

use std::sync::LazyLock;

use prost_reflect::{
    DescriptorPool, DeserializeOptions, DynamicMessage, MessageDescriptor, SerializeOptions,
};

use crate::api::pb::{self, FILE_DESCRIPTOR_SET};

/// The descriptor pool of `mahjong.v1`, decoded once.
static POOL: LazyLock<Result<DescriptorPool, String>> = LazyLock::new(|| {
    DescriptorPool::decode(FILE_DESCRIPTOR_SET).map_err(|e| format!("descriptor set: {e}"))
});

/// A JSON text that is not a valid message, or (never expected) a broken descriptor set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct JsonError {
    /// What went wrong, for people.
    pub message: String,
}

fn error(message: impl Into<String>) -> JsonError {
    JsonError {
        message: message.into(),
    }
}

/// The descriptor of a `mahjong.v1` message by its short name.
fn descriptor(name: &str) -> Result<MessageDescriptor, JsonError> {
    let pool = POOL.as_ref().map_err(|e| error(e.clone()))?;
    pool.get_message_by_name(&format!("mahjong.v1.{name}"))
        .ok_or_else(|| {
            error(format!(
                "message mahjong.v1.{name} is not in the descriptor set"
            ))
        })
}

/// Reads a message of type `M` (named `name` in `mahjong.v1`) from proto3 JSON.
pub(crate) fn from_json<M: prost::Message + Default>(
    name: &str,
    text: &str,
) -> Result<M, JsonError> {
    let desc = descriptor(name)?;
    let mut de = serde_json::Deserializer::from_str(text);
    let message =
        DynamicMessage::deserialize_with_options(desc, &mut de, &DeserializeOptions::new())
            .map_err(|e| error(format!("not a {name}: {e}")))?;
    de.end().map_err(|e| error(format!("not a {name}: {e}")))?;
    message
        .transcode_to::<M>()
        .map_err(|e| error(format!("not a {name}: {e}")))
}

/// Writes a message of type `M` (named `name` in `mahjong.v1`) as proto3 JSON.
pub(crate) fn to_json<M: prost::Message>(
    name: &str,
    message: &M,
    pretty: bool,
) -> Result<String, JsonError> {
    let mut dynamic = DynamicMessage::new(descriptor(name)?);
    dynamic
        .transcode_from(message)
        .map_err(|e| error(format!("cannot write {name}: {e}")))?;
    let options = SerializeOptions::new().skip_default_fields(false);
    let mut out = Vec::new();
    if pretty {
        let mut ser = serde_json::Serializer::pretty(&mut out);
        dynamic.serialize_with_options(&mut ser, &options)
    } else {
        let mut ser = serde_json::Serializer::new(&mut out);
        dynamic.serialize_with_options(&mut ser, &options)
    }
    .map_err(|e| error(format!("cannot write {name}: {e}")))?;
    String::from_utf8(out).map_err(|e| error(format!("cannot write {name}: {e}")))
}

/// Reads a `ScoreHandRequest` from proto3 JSON.
pub fn score_request_from_json(text: &str) -> Result<pb::ScoreHandRequest, JsonError> {
    from_json("ScoreHandRequest", text)
}

/// Reads a `ValidateHandRequest` from proto3 JSON.
pub fn validate_request_from_json(text: &str) -> Result<pb::ValidateHandRequest, JsonError> {
    from_json("ValidateHandRequest", text)
}

/// Writes a `ScoreHandResponse` as proto3 JSON (one line, or indented when `pretty`).
pub fn score_response_to_json(
    response: &pb::ScoreHandResponse,
    pretty: bool,
) -> Result<String, JsonError> {
    to_json("ScoreHandResponse", response, pretty)
}

/// Writes a `ValidateHandResponse` as proto3 JSON (one line, or indented when `pretty`).
pub fn validate_response_to_json(
    response: &pb::ValidateHandResponse,
    pretty: bool,
) -> Result<String, JsonError> {
    to_json("ValidateHandResponse", response, pretty)
}

/// Reads a `LegalActionsRequest` from proto3 JSON.
pub fn legal_actions_request_from_json(text: &str) -> Result<pb::LegalActionsRequest, JsonError> {
    from_json("LegalActionsRequest", text)
}

/// Writes a `LegalActionsResponse` as proto3 JSON (one line, or indented when `pretty`).
pub fn legal_actions_response_to_json(
    response: &pb::LegalActionsResponse,
    pretty: bool,
) -> Result<String, JsonError> {
    to_json("LegalActionsResponse", response, pretty)
}

/// Reads an `AnalyzeHandRequest` from proto3 JSON.
pub fn analyze_request_from_json(text: &str) -> Result<pb::AnalyzeHandRequest, JsonError> {
    from_json("AnalyzeHandRequest", text)
}

/// Writes an `AnalyzeHandResponse` as proto3 JSON (one line, or indented when `pretty`).
pub fn analyze_response_to_json(
    response: &pb::AnalyzeHandResponse,
    pretty: bool,
) -> Result<String, JsonError> {
    to_json("AnalyzeHandResponse", response, pretty)
}

/// Reads `RuleOverrides` from proto3 JSON (the command line's `--overrides`).
pub fn overrides_from_json(text: &str) -> Result<pb::RuleOverrides, JsonError> {
    from_json("RuleOverrides", text)
}

/// Writes a `DescribeRulesetResponse` as proto3 JSON (one line, or indented when `pretty`).
pub fn describe_response_to_json(
    response: &pb::DescribeRulesetResponse,
    pretty: bool,
) -> Result<String, JsonError> {
    to_json("DescribeRulesetResponse", response, pretty)
}

/// Writes a `ParseHandResponse` as proto3 JSON (one line, or indented when `pretty`).
pub fn parse_response_to_json(
    response: &pb::ParseHandResponse,
    pretty: bool,
) -> Result<String, JsonError> {
    to_json("ParseHandResponse", response, pretty)
}

/// The error line of the JSON Lines protocol for an input line that is not a request.
pub fn error_line(code: &str, message: &str) -> String {
    serde_json::json!({ "error": { "code": code, "message": message } }).to_string()
}
