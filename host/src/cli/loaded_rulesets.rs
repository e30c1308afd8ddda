//! Rulesets loaded once per command. `floor test` runs every scenario of every ruleset under
//! each ruleset the scenario names, and asks first whether each can play it: loading the
//! ruleset afresh every time would read its files and compile its scripts, and its parents',
//! some two thousand times, which was nearly all of the command's time.

use super::CliError;
use crate::rulesets::Store;
use floor_engine::ruleset::{Ruleset, Sandbox};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The rulesets of one store, each loaded (to play: checked, its scripts compiled) the first
/// time a command asks for it and shared after that. A ruleset that fails to load is not
/// kept: each request reports its problems again.
pub struct LoadedRulesets<'s> {
    store: &'s Store,
    sandbox: Sandbox,
    by_id: RefCell<BTreeMap<String, Arc<Ruleset>>>,
}

impl<'s> LoadedRulesets<'s> {
    /// Nothing loaded yet from `store`.
    pub fn new(store: &'s Store) -> Self {
        LoadedRulesets {
            store,
            sandbox: Sandbox::new(),
            by_id: RefCell::new(BTreeMap::new()),
        }
    }

    /// The store the rulesets come from.
    pub fn store(&self) -> &'s Store {
        self.store
    }

    /// Ruleset `id`, loaded to play.
    pub fn get(&self, id: &str) -> Result<Arc<Ruleset>, CliError> {
        if let Some(ruleset) = self.by_id.borrow().get(id) {
            return Ok(ruleset.clone());
        }
        let ruleset = self.store.load_to_play(id, &self.sandbox)?;
        self.by_id
            .borrow_mut()
            .insert(id.to_string(), ruleset.clone());
        Ok(ruleset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ruleset_is_loaded_once_and_shared() {
        let store = Store::choose(None);
        let loaded = LoadedRulesets::new(&store);
        let first = loaded.get("pt-casino-2007").expect("a bundled ruleset");
        let again = loaded.get("pt-casino-2007").expect("a bundled ruleset");
        assert!(Arc::ptr_eq(&first, &again));
        assert!(loaded.get("no-such-ruleset").is_err());
        assert!(loaded.get("no-such-ruleset").is_err());
    }
}
