//! The one collector of a request's violations ([`Violations`]): every conversion from proto
//! takes `&mut Violations` and records what it finds there, so that one bad field does not
//! hide another.

use mcr::violation::FieldPath;
use mcr::{Violation, ViolationCode};

use super::path;

/// Collects violations while a request is converted.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Violations(Vec<Violation>);

impl Violations {
    /// A new violation `code` at `path`.
    pub fn push(&mut self, code: ViolationCode, path: FieldPath, message: impl Into<String>) {
        self.0.push(Violation::new(code, path, message.into()));
    }

    /// A violation already made.
    pub fn add(&mut self, violation: Violation) {
        self.0.push(violation);
    }

    /// Violations already made (an engine's list, a nested conversion's).
    pub fn extend(&mut self, violations: impl IntoIterator<Item = Violation>) {
        self.0.extend(violations);
    }

    /// The value of `result`, or `None` after recording its violation.
    pub fn take<T>(&mut self, result: Result<T, Violation>) -> Option<T> {
        result.map_err(|v| self.0.push(v)).ok()
    }

    /// The value of `result`, or `None` after recording its violations.
    pub fn take_all<T>(&mut self, result: Result<T, Vec<Violation>>) -> Option<T> {
        result.map_err(|v| self.0.extend(v)).ok()
    }

    /// Forgets every violation found, keeping the allocation (a query read again).
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The violations found, in the order found.
    pub fn as_slice(&self) -> &[Violation] {
        &self.0
    }

    /// Whether none was found.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many were found.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// `Ok(value)` when none was found, else every violation.
    pub fn or_value<T>(self, value: T) -> Result<T, Vec<Violation>> {
        if self.0.is_empty() {
            Ok(value)
        } else {
            Err(self.0)
        }
    }

    /// The violations found, in the order found.
    pub fn into_vec(self) -> Vec<Violation> {
        self.0
    }
}

/// A violation of the engine placed below `prefix`, a path of the request.
pub fn prefixed(prefix: FieldPath, v: Violation) -> Violation {
    path::renamed_violation(v, |p| p.under(prefix))
}

/// A path `{name}[k]…` of the k-th converted element, as the request index `index[k]`.
pub fn renumbered(path: FieldPath, name: &str, index: &[usize]) -> FieldPath {
    path::reindexed(path, name, |k| index.get(k).copied())
}
