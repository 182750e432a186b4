//! The only place that speaks YAML for the log (ecosystem.md §1.5: keep YAML behind one module,
//! so that swapping the YAML crate is a one-file change).

use super::entry::Entry;

/// Why a document is not an entry.
pub(crate) enum ParseError {
    /// Not YAML at all (or more than one YAML document).
    Syntax(String),
    /// Well-formed YAML that is not an entry: a missing, unknown or ill-typed field.
    Schema(String),
}

/// Parses one document (its `---` line included) into an entry.
pub(crate) fn parse_entry(document: &str) -> Result<Entry, ParseError> {
    match serde_yaml::from_str::<Entry>(document) {
        Ok(entry) => Ok(entry),
        Err(err) => match serde_yaml::from_str::<serde_yaml::Value>(document) {
            Ok(_) => Err(ParseError::Schema(err.to_string())),
            Err(_) => Err(ParseError::Syntax(err.to_string())),
        },
    }
}

/// Writes one entry as a document: `---\n`, the emitter's output (which ends with a newline),
/// and the document end line `...\n`.
///
/// # Errors
///
/// The emitter's message, if the entry cannot be written as YAML.
pub(crate) fn entry_document(entry: &Entry) -> Result<String, String> {
    let body = serde_yaml::to_string(entry).map_err(|e| e.to_string())?;
    Ok(format!("---\n{body}...\n"))
}
