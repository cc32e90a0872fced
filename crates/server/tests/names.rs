//! The server names no game (issue 15, "Games describe themselves"): what a game offers comes
//! from its declaration in `madang-games` (`Describe`) through the games registry, so adding a
//! game touches the registry and its client module, not the server. This reads the server's
//! sources (unit tests excepted) and the browser client's shared files (everything but each
//! game's own modules under `js/games/` and `js/messages/<game>.js`) for game-name literals.

#![allow(clippy::unwrap_used)]

use std::path::Path;

/// The files under `dir` ending in `.ext`, recursively.
fn sources(dir: &Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, ext, out);
        } else if path.extension().is_some_and(|x| x == ext) {
            out.push(path);
        }
    }
}

/// The lines of `text` that hold one of the games' names as a string literal (either quote).
fn named(file: &Path, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for game in ["ur", "yut", "ludo", "dice-poker"] {
            if [format!("\"{game}\""), format!("'{game}'"), format!("`{game}`")]
                .iter()
                .any(|q| line.contains(q.as_str()))
            {
                found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn no_server_source_names_a_game() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, "rs", &mut files);
    assert!(files.len() > 10, "the server's sources: {files:?}");
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        // A file's unit tests (from `#[cfg(test)]` on) may play a named game.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        found.extend(named(&file, code));
    }
    assert!(found.is_empty(), "game names in the server's code:\n{}", found.join("\n"));
}

#[test]
fn no_shared_client_file_names_a_game() {
    let js = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/static/js");
    let mut files = Vec::new();
    sources(&js, "js", &mut files);
    // Each game's own modules may name it: its board (`games/`) and its messages.
    let own = |path: &Path| {
        let parent = path.parent().and_then(Path::file_name).unwrap_or_default();
        parent == "games" || (parent == "messages" && path.file_name().is_some_and(|f| f != "app.js"))
    };
    let shared: Vec<_> = files.into_iter().filter(|p| !own(p)).collect();
    assert!(shared.len() > 10, "the client's shared files: {shared:?}");
    let found: Vec<String> =
        shared.iter().flat_map(|file| named(file, &std::fs::read_to_string(file).unwrap())).collect();
    assert!(found.is_empty(), "game names in the client's shared files:\n{}", found.join("\n"));
    // The test sees a name where there is one.
    assert_eq!(named(Path::new("x.js"), "if (game === 'ur') {}").len(), 1);
}
