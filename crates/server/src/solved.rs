//! The solved Royal Game of Ur: tables found in `<data-dir>/ur/` at start (`madang ur solve`
//! writes them there), which give the `perfect` CPU level, the `win_chance` of an Ur game's
//! state and the game review (`GET /api/games/{id}/review`, `docs/api.md`).

use std::path::Path;
use std::sync::Arc;

use madang_ur::UrSettings;
use serde_json::Value;

use crate::error::ServerError;

/// Loads every `*.table` in `<data_dir>/ur/` and installs it for the perfect player; returns the
/// rules loaded. A file must be named after the rules it solves (`finkel.table`,
/// `finkel-3pieces.table`, …, as `madang ur solve` names it).
///
/// # Errors
/// A table that cannot be read, is damaged, or solves other rules than its name says.
pub fn load_tables(data_dir: &Path) -> Result<Vec<UrSettings>, ServerError> {
    let dir = data_dir.join(<madang_ur::Ur as madang_core::Game>::NAME);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(ServerError::io(format!("reading {}", dir.display()), e)),
    };
    let mut paths: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "table"))
        .collect();
    paths.sort();
    let mut loaded = Vec::new();
    for path in paths {
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let header = madang_ur_solver::read_header(&path).map_err(|e| ServerError::Config(e.to_string()))?;
        let name = madang_ur_solver::table_name(&header.settings);
        if name != stem {
            return Err(ServerError::Config(format!(
                "{} holds the table for {}, not for the rules its name says ({stem}): refusing it; rename it to {name}.table or solve {stem} again with `madang ur solve`",
                path.display(),
                madang_ur_solver::describe(&header.settings),
            )));
        }
        let table = madang_ur_solver::read_table_for(&path, &header.settings)
            .map_err(|e| ServerError::Config(format!("{e}; solve it again with `madang ur solve`")))?;
        tracing::info!(path = %path.display(), states = table.len(), start = table.header().start_value, "solved Ur table loaded");
        loaded.push(header.settings);
        madang_bots::ur::install_table(Arc::new(table));
    }
    Ok(loaded)
}

/// The rules objects (as `rules` in a game) of the tables loaded.
pub fn solved_rules() -> Vec<Value> {
    madang_bots::ur::installed_tables()
        .iter()
        .map(|s| serde_json::from_str(&madang_ur_solver::rules_json(s)).unwrap_or(Value::Null))
        .collect()
}

/// Whether the perfect player can play Ur under the default rules.
pub fn default_rules_solved() -> bool {
    madang_bots::ur::table_for(&madang_ur::Preset::default().settings()).is_some()
}
