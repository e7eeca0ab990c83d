//! The shell's integer arithmetic, as far as a gate can follow it: array
//! indices (`${a[i+1]}`) and slices (`${v:1:3}`, `${a[@]: -1}`).
//!
//! Written here rather than taken from a crate: what is needed is bash's
//! integer rules over the gate's own variables (a name stands for its
//! value, read in turn as an expression), which no expression crate has.

use crate::prelude::*;

/// The value of `text`: integers (decimal, `0x` hexadecimal, `0` octal),
/// variables by name or as `$name`, unary `+` and `-`, `* / % + -` and
/// parentheses. `None` for anything else, a variable whose value `variable`
/// does not know, a division by zero or an overflow.
pub fn evaluate(text: &str, variable: &dyn Fn(&str) -> Option<String>) -> Option<i64> {
    // Nothing is 0, as in `$(( ))` and `${v::2}`.
    if text.trim().is_empty() {
        return Some(0);
    }
    whole(text, variable, 0)
}

/// The value of all of `text`, read `depth` variables deep.
fn whole(text: &str, variable: &dyn Fn(&str) -> Option<String>, depth: usize) -> Option<i64> {
    if depth >= MOST_DEPTH {
        return None;
    }
    let mut reader = Reader {
        text: text.as_bytes(),
        pos: 0,
        variable,
        depth,
    };
    let value = reader.sum()?;
    reader.blanks();
    (reader.pos == reader.text.len()).then_some(value)
}

/// How deep parentheses and variables whose values are expressions nest.
const MOST_DEPTH: usize = 32;

struct Reader<'t, 'v> {
    text: &'t [u8],
    pos: usize,
    variable: &'v dyn Fn(&str) -> Option<String>,
    depth: usize,
}

impl Reader<'_, '_> {
    fn blanks(&mut self) {
        while self.text.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    /// The next byte past blanks, if it is one of `operators`.
    fn operator(&mut self, operators: &[u8]) -> Option<u8> {
        self.blanks();
        let byte = *self.text.get(self.pos)?;
        // `**`, `++`, `+=` and the like are not followed.
        let next = self.text.get(self.pos + 1).copied();
        let compound = b"+-*/%".contains(&byte) && (next == Some(byte) || next == Some(b'='));
        (operators.contains(&byte) && !compound).then(|| {
            self.pos += 1;
            byte
        })
    }

    fn sum(&mut self) -> Option<i64> {
        let mut value = self.product()?;
        while let Some(operator) = self.operator(b"+-") {
            let right = self.product()?;
            value = match operator {
                b'+' => value.checked_add(right)?,
                _ => value.checked_sub(right)?,
            };
        }
        Some(value)
    }

    fn product(&mut self) -> Option<i64> {
        let mut value = self.unary()?;
        while let Some(operator) = self.operator(b"*/%") {
            let right = self.unary()?;
            value = match operator {
                b'*' => value.checked_mul(right)?,
                b'/' => value.checked_div(right)?,
                _ => value.checked_rem(right)?,
            };
        }
        Some(value)
    }

    fn unary(&mut self) -> Option<i64> {
        match self.operator(b"+-(") {
            Some(b'+') => self.unary(),
            Some(b'-') => self.unary()?.checked_neg(),
            Some(_) => {
                let value = self.nested(Self::sum)?;
                (self.operator(b")") == Some(b')')).then_some(value)
            }
            None => self.operand(),
        }
    }

    fn nested(&mut self, read: fn(&mut Self) -> Option<i64>) -> Option<i64> {
        if self.depth >= MOST_DEPTH {
            return None;
        }
        self.depth += 1;
        let value = read(self);
        self.depth -= 1;
        value
    }

    /// A number or a variable.
    fn operand(&mut self) -> Option<i64> {
        self.blanks();
        let start = self.pos;
        if self.text.get(self.pos) == Some(&b'$') {
            self.pos += 1;
        }
        let word_start = self.pos;
        while self
            .text
            .get(self.pos)
            .is_some_and(|byte| byte.is_ascii_alphanumeric() || *byte == b'_')
        {
            self.pos += 1;
        }
        let word = core::str::from_utf8(&self.text[word_start..self.pos]).ok()?;
        match word.bytes().next()? {
            b'0'..=b'9' if start == word_start => number(word),
            b'0'..=b'9' => None,
            _ => {
                let value = (self.variable)(word)?;
                if value.trim().is_empty() {
                    return Some(0);
                }
                whole(&value, self.variable, self.depth + 1)
            }
        }
    }
}

/// An integer literal: decimal, `0x` hexadecimal or `0` octal.
fn number(word: &str) -> Option<i64> {
    if let Some(hex) = word.strip_prefix("0x").or_else(|| word.strip_prefix("0X")) {
        i64::from_str_radix(hex, 16).ok()
    } else if word.len() > 1 && word.starts_with('0') {
        i64::from_str_radix(&word[1..], 8).ok()
    } else {
        word.parse().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Option<i64> {
        evaluate(text, &|name| match name {
            "i" => Some("1".to_owned()),
            "j" => Some("i+2".to_owned()),
            "loop" => Some("loop".to_owned()),
            "empty" => Some(String::new()),
            _ => None,
        })
    }

    #[test]
    fn follows_integers_variables_and_operators() {
        assert_eq!(value("1"), Some(1));
        assert_eq!(value(" -1 "), Some(-1));
        assert_eq!(value("i+1"), Some(2));
        assert_eq!(value("$i * (2 + 3) % 4"), Some(1));
        assert_eq!(value("j"), Some(3));
        assert_eq!(value("0x10 - 010"), Some(8));
        assert_eq!(value("empty + 4"), Some(4));
        assert_eq!(value("7 / 2"), Some(3));
        assert_eq!(value("i+-1"), Some(0));
        assert_eq!(value("((i))"), Some(1));
        assert_eq!(value(" "), Some(0));
    }

    #[test]
    fn knows_nothing_it_cannot_follow() {
        assert_eq!(value("unknown"), None);
        assert_eq!(value("1 / 0"), None);
        assert_eq!(value("i++"), None);
        assert_eq!(value("2 ** 3"), None);
        assert_eq!(value("loop"), None);
        assert_eq!(value("(1"), None);
        assert_eq!(value("1 1"), None);
        assert_eq!(value("9223372036854775807 + 1"), None);
        assert_eq!(value(&"(".repeat(100)), None);
    }
}
