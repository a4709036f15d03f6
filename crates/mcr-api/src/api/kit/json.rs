//! proto3 JSON for the `mahjong.v1` messages, through prost-reflect and the descriptor set.
//!
//! Requests are read with the proto3 JSON rules (lowerCamelCase or proto field names, enums by
//! name or number, unknown fields rejected). Responses are written with every field present,
//! default values included (`"fanTotal": 0`), and enums by name.

use std::sync::LazyLock;

use prost_reflect::{
    DescriptorPool, DeserializeOptions, DynamicMessage, MessageDescriptor, SerializeOptions,
};

use prost::{Message, Name};

use crate::api::pb::FILE_DESCRIPTOR_SET;

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

/// The descriptor of the `mahjong.v1` message `M`.
fn descriptor<M: Name>() -> Result<MessageDescriptor, JsonError> {
    let pool = POOL.as_ref().map_err(|e| error(e.clone()))?;
    let name = M::full_name();
    pool.get_message_by_name(&name)
        .ok_or_else(|| error(format!("message {name} is not in the descriptor set")))
}

/// Reads a message `M` of `mahjong.v1` (a request, `RuleOverrides`) from proto3 JSON.
///
/// # Errors
/// Text that is not the message, with what proto3 JSON found wrong.
pub fn from_json<M: Message + Name + Default>(text: &str) -> Result<M, JsonError> {
    let name = M::NAME;
    let mut de = serde_json::Deserializer::from_str(text);
    let message = DynamicMessage::deserialize_with_options(
        descriptor::<M>()?,
        &mut de,
        &DeserializeOptions::new(),
    )
    .map_err(|e| error(format!("not a {name}: {e}")))?;
    de.end().map_err(|e| error(format!("not a {name}: {e}")))?;
    message
        .transcode_to::<M>()
        .map_err(|e| error(format!("not a {name}: {e}")))
}

/// Writes a message `M` of `mahjong.v1` (a response) as proto3 JSON: one line, or indented
/// when `pretty`.
///
/// # Errors
/// Never expected: a message the descriptor set does not describe.
pub fn to_json<M: Message + Name>(message: &M, pretty: bool) -> Result<String, JsonError> {
    let name = M::NAME;
    let mut dynamic = DynamicMessage::new(descriptor::<M>()?);
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

/// The error line of the JSON Lines protocol for an input line that is not a request.
pub fn error_line(code: &str, message: &str) -> String {
    serde_json::json!({ "error": { "code": code, "message": message } }).to_string()
}
