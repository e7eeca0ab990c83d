//! JSON read strictly: a key given twice in one object is refused by name,
//! since which of the two a reader keeps is not written anywhere. serde_json
//! keeps the last silently, so this walks the text once before it is read.

use std::collections::HashSet;
use std::fmt;

use serde::de::{Deserialize, Deserializer, Error, MapAccess, SeqAccess, Visitor};

/// Accepts any JSON whose objects each name a key once.
struct Unique;

impl<'de> Deserialize<'de> for Unique {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(UniqueVisitor)
    }
}

struct UniqueVisitor;

impl<'de> Visitor<'de> for UniqueVisitor {
    type Value = Unique;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(A::Error::custom(format!("the key {key:?} is given twice")));
            }
            map.next_value::<Unique>()?;
            seen.insert(key);
        }
        Ok(Unique)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
        while seq.next_element::<Unique>()?.is_some() {}
        Ok(Unique)
    }

    fn visit_bool<E: Error>(self, _: bool) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_i64<E: Error>(self, _: i64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_u64<E: Error>(self, _: u64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_f64<E: Error>(self, _: f64) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_str<E: Error>(self, _: &str) -> Result<Unique, E> {
        Ok(Unique)
    }
    fn visit_unit<E: Error>(self) -> Result<Unique, E> {
        Ok(Unique)
    }
}

/// Where in `text` a key is given twice, and which: `events.stop: the key "hooks" is given twice`.
pub fn duplicate_key(text: &str) -> Option<String> {
    let mut reader = serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, Unique>(&mut reader) {
        Ok(Unique) => None,
        Err(err) => Some(format!("{}: {}", place(err.path()), err.inner())),
    }
}

/// A path as a message names it; the top level has none.
pub fn place(path: &serde_path_to_error::Path) -> String {
    match path.to_string().as_str() {
        "." => "at the top level".to_string(),
        inner => inner.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_key_given_twice_is_named_with_its_place() {
        let found = super::duplicate_key(r#"{"events": {"stop": {"hooks": [], "hooks": []}}}"#);
        let found = found.unwrap_or_default();
        assert!(
            found.starts_with(r#"events.stop: the key "hooks" is given twice"#),
            "{found}"
        );
        assert_eq!(super::duplicate_key(r#"{"a": [{"b": 1}, {"b": 2}]}"#), None);
    }
}
