//! A list that keeps a single element inline: most words have one part and
//! most pipelines one command, and reading them should not allocate.

use crate::prelude::*;

#[derive(Debug, Default)]
pub enum Inline<T> {
    #[default]
    Empty,
    One(T),
    Many(Vec<T>),
}

impl<T> Inline<T> {
    pub fn push(&mut self, item: T) {
        match self {
            Self::Empty => *self = Self::One(item),
            Self::Many(items) => items.push(item),
            Self::One(_) => {
                if let Self::One(first) = core::mem::take(self) {
                    *self = Self::Many(vec![first, item]);
                }
            }
        }
    }

    pub fn into_single(self) -> Option<T> {
        match self {
            Self::One(item) => Some(item),
            _ => None,
        }
    }

    pub fn as_mut_slice(&mut self) -> &mut [T] {
        match self {
            Self::Empty => &mut [],
            Self::One(item) => core::slice::from_mut(item),
            Self::Many(items) => items,
        }
    }
}

impl<T> core::ops::Deref for Inline<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            Self::Empty => &[],
            Self::One(item) => core::slice::from_ref(item),
            Self::Many(items) => items,
        }
    }
}

impl<'i, T> IntoIterator for &'i Inline<T> {
    type Item = &'i T;
    type IntoIter = core::slice::Iter<'i, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
