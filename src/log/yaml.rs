//! The only place that speaks YAML for the log (ecosystem.md §1.5: keep YAML behind one module,
//! so that swapping the YAML crate is a one-file change).

use super::entry::Entry;

mod canonical;

pub(crate) use canonical::parse as parse_canonical;

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

/// Parses a whole log's documents in one pass of the YAML parser, when that is certain to give
/// what [`parse_entry`] gives each document alone; `None` otherwise (the caller then parses each
/// document alone, for its findings).
///
/// `text` is the whole file and `documents` its split ([`super::split_documents`]), which
/// must cover it (no leading bytes). One parser over the stream spares the per-document set-up
/// (the parser's 64 KiB of buffers a document) that dominates parsing short entries.
/// It is used only when every document is exactly `---` line, body, `...` line, and no body
/// line starts a document (`---`), ends one (`...`) or is a directive (`%`): then the stream
/// is the documents one after the other, each parsed from its own start marker to its own end
/// marker with nothing in between, as alone. Any error, or a document count other than the
/// split's, gives `None`.
pub(crate) fn parse_stream(text: &str, documents: &[std::ops::Range<usize>]) -> Option<Vec<Entry>> {
    use serde::Deserialize;
    let whole = documents.first()?.start == 0 && documents.last()?.end == text.len();
    if !whole
        || !documents
            .iter()
            .all(|d| plain_document(&text.as_bytes()[d.clone()]))
    {
        return None;
    }
    let mut entries = Vec::with_capacity(documents.len());
    for document in serde_yaml::Deserializer::from_str(text) {
        if entries.len() == documents.len() {
            return None;
        }
        entries.push(Entry::deserialize(document).ok()?);
    }
    (entries.len() == documents.len()).then_some(entries)
}

/// Whether `doc` is a `---` line, lines none of which starts with `---`, `...` or `%`, and a
/// `...` line ([`parse_stream`]).
fn plain_document(doc: &[u8]) -> bool {
    let Some(body) = doc
        .strip_prefix(b"---\n")
        .and_then(|d| d.strip_suffix(b"...\n"))
    else {
        return false;
    };
    if !(body.is_empty() || body.ends_with(b"\n")) {
        return false;
    }
    body.split(|&b| b == b'\n').all(|line| {
        !(line.starts_with(b"---") || line.starts_with(b"...") || line.starts_with(b"%"))
    })
}
