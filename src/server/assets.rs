//! The page's files, compiled into the binary so that `panoply serve` needs nothing else:
//! plain HTML, CSS and ES modules, the board and the pieces drawn as SVG by the scripts.

const FILES: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("web/index.html"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("web/style.css"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("web/app.js"),
    ),
    (
        "/api.js",
        "text/javascript; charset=utf-8",
        include_str!("web/api.js"),
    ),
    (
        "/board.js",
        "text/javascript; charset=utf-8",
        include_str!("web/board.js"),
    ),
    (
        "/glyphs.js",
        "text/javascript; charset=utf-8",
        include_str!("web/glyphs.js"),
    ),
    (
        "/panels.js",
        "text/javascript; charset=utf-8",
        include_str!("web/panels.js"),
    ),
];

/// The content type and text of a page file, if `path` names one.
pub fn file(path: &str) -> Option<(&'static str, &'static str)> {
    let path = if path == "/index.html" { "/" } else { path };
    FILES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|&(_, content_type, body)| (content_type, body))
}
