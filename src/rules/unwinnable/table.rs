//! A small hash table from position keys to one `i32`, emptied in O(1) by bumping a
//! generation (the searches run many times per second and must not clear megabytes).

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    generation: u32,
    value: i32,
}

pub struct Table {
    entries: Vec<Entry>,
    /// Entries once allocated (a power of two).
    size: usize,
    generation: u32,
}

impl Table {
    /// A table of `2^bits` entries (allocated on first use).
    pub fn new(bits: u32) -> Table {
        Table { entries: Vec::new(), size: 1 << bits, generation: 1 }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // After 2^32 clears old entries could look current again: wipe them for real.
            self.entries.iter_mut().for_each(|e| *e = Entry::default());
            self.generation = 1;
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.size - 1)
    }

    #[inline]
    pub fn get(&self, key: u64) -> Option<i32> {
        if self.entries.is_empty() {
            return None;
        }
        let e = self.entries[self.slot(key)];
        (e.generation == self.generation && e.key == key).then_some(e.value)
    }

    /// Stores (replacing whatever was in the slot).
    #[inline]
    pub fn put(&mut self, key: u64, value: i32) {
        if self.entries.is_empty() {
            self.entries = vec![Entry::default(); self.size];
        }
        let i = self.slot(key);
        self.entries[i] = Entry { key, generation: self.generation, value };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_forgets() {
        let mut t = Table::new(4);
        assert_eq!(t.get(7), None);
        t.put(7, 3);
        assert_eq!(t.get(7), Some(3));
        assert_eq!(t.get(7 + 16), None); // same slot, other key
        t.clear();
        assert_eq!(t.get(7), None);
    }
}
