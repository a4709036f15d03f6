//! Collecting the violations of an accounting request, and placing the engine's.

use super::super::values::ruleset_from_pb;
use mcr::{RulesetId, Violation, ViolationCode};

use super::super::path::{self, FieldPath};

/// Collects violations while a request is converted.
#[derive(Debug, Default)]
pub(crate) struct Violations(pub(crate) Vec<Violation>);

impl Violations {
    pub(crate) fn push(
        &mut self,
        code: ViolationCode,
        field: impl Into<String>,
        message: impl Into<String>,
    ) {
        self.0
            .push(Violation::new(code, field.into(), message.into()));
    }

    /// The value of `result`, or `None` after recording its violation.
    pub(crate) fn take<T>(&mut self, result: Result<T, Violation>) -> Option<T> {
        result.map_err(|v| self.0.push(v)).ok()
    }
}

/// A violation of the engine placed below `prefix`, a path of the request.
pub(crate) fn prefixed(prefix: &str, v: Violation) -> Violation {
    path::renamed_violation(v, |p| p.under(&FieldPath::parse(prefix)))
}

/// The ruleset of a request: unknown numbers are a violation, and the default rules stand
/// in so that the rest of the request is still checked.
pub(crate) fn ruleset_of(number: i32, v: &mut Violations) -> RulesetId {
    v.take(ruleset_from_pb(number)).unwrap_or_default()
}

/// A path `{name}[k]…` of the k-th converted element, as the request index `index[k]`.
pub(crate) fn renumbered(path: FieldPath, name: &str, index: &[usize]) -> FieldPath {
    path.reindexed(name, |k| index.get(k).copied())
}
