//! What the PHH reader's fuzz-style tests share: a deterministic generator and the pieces
//! garbage texts are made of (kept in one place so the dump and the format tests try the same
//! kinds of damage).

/// A tiny deterministic generator (xorshift), so the inputs are the same on every run and the
/// tests need no extra dependency.
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Fragments of PHH/TOML syntax, values and keys that garbage texts are strung from.
pub const GARBAGE_PIECES: &[&str] = &[
    "[",
    "]",
    "[1]",
    "[2]",
    "[[",
    "'",
    "\"",
    "'''",
    "= ",
    "a = ",
    "\n",
    "#",
    "inf",
    "-inf",
    "nan",
    "1e999",
    "0.5",
    "1_",
    "_1",
    "12:00",
    "2009-07-19 ",
    "\\u00",
    "\\",
    "{",
    "’",
    "\u{feff}",
    "\r",
    "actions",
    "variant = 'NT'",
    "p1 cbr ",
    ", ",
    "antes = [0, 0]\n",
    "starting_stacks = [1, inf]\n",
    "actions = ['p1 f']\n",
    "min_bet = 1\n",
    "0x1F",
    "blinds_or_straddles = [1, 2]\n",
];

/// A garbage text of fewer than `pieces` fragments.
pub fn garbage(rng: &mut Rng, pieces: usize) -> String {
    (0..rng.below(pieces))
        .map(|_| GARBAGE_PIECES[rng.below(GARBAGE_PIECES.len())])
        .collect()
}
