//! Every board of Ludii's Sprout-R-Out 1.3.12, checked cell by cell and
//! neighbour by neighbour against Ludii's own dumps in the project's copy, `tests/oracles/sprout-r-out/boards/`.

use std::path::PathBuf;

use roots::core::graph::{Adjacency, Board};
use roots::games::sprout_r_out::{BoardShape, Groups, board_for};
use serde_json::Value;

use crate::common;

fn oracle_dir() -> PathBuf {
    common::oracle_dir("sprout-r-out").join("boards")
}

/// The oracle's board slugs and the variant values that select them.
const SLUGS: [(&str, BoardShape, Groups); 13] = [
    ("limping-3", BoardShape::Limping3, Groups::Edge),
    ("limping-5", BoardShape::Limping5, Groups::Edge),
    ("limping-7", BoardShape::Limping7, Groups::Edge),
    ("hex-6", BoardShape::Hex6, Groups::Edge),
    ("triangle-9", BoardShape::Triangle9, Groups::Edge),
    ("epoxy-39", BoardShape::Epoxy39, Groups::Edge),
    ("epoxy-72", BoardShape::Epoxy72, Groups::Edge),
    ("square-ortho-9", BoardShape::Square9, Groups::Edge),
    (
        "square-diagonal-9",
        BoardShape::Square9,
        Groups::EdgeOrVertex,
    ),
    ("cairo-1", BoardShape::Cairo1, Groups::Edge),
    ("cairo-1-diagonal", BoardShape::Cairo1, Groups::EdgeOrVertex),
    ("cairo-2", BoardShape::Cairo2, Groups::Edge),
    ("cairo-2-diagonal", BoardShape::Cairo2, Groups::EdgeOrVertex),
];

fn list(v: &Value) -> Vec<u16> {
    v.as_array()
        .expect("a list of cells")
        .iter()
        .map(|x| x.as_u64().expect("a cell index") as u16)
        .collect()
}

fn check(slug: &str, board: &Board, groups: Groups) -> Vec<String> {
    let path = oracle_dir().join(format!("{slug}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the oracle board {} is missing: {e}", path.display()));
    let data: Value = serde_json::from_str(&text).expect("board JSON");
    let mut problems = Vec::new();
    let direction = match groups {
        Groups::Edge => "Orthogonal",
        Groups::EdgeOrVertex => "Adjacent",
    };
    if data["direction"] != direction {
        problems.push(format!(
            "direction {} expected {direction}",
            data["direction"]
        ));
    }
    let cells = data["cells"].as_array().expect("cells");
    if cells.len() != board.len() || data["cell_count"].as_u64() != Some(board.len() as u64) {
        problems.push(format!("{} cells, Ludii has {}", board.len(), cells.len()));
        return problems;
    }
    let (x0, y0) = (
        cells[0]["x"].as_f64().unwrap(),
        cells[0]["y"].as_f64().unwrap(),
    );
    let (bx0, by0) = board.xy(0);
    for (i, cell) in cells.iter().enumerate() {
        let c = i as u16;
        assert_eq!(
            cell["index"].as_u64(),
            Some(i as u64),
            "{slug}: cells in index order"
        );
        if cell["label"] != board.label(c) {
            problems.push(format!(
                "cell {i}: label {} vs Ludii {}",
                board.label(c),
                cell["label"]
            ));
        }
        let (x, y) = board.xy(c);
        let (lx, ly) = (cell["x"].as_f64().unwrap(), cell["y"].as_f64().unwrap());
        // Ludii's origin differs from board to board: compare up to a translation.
        if ((x - bx0) - (lx - x0)).abs() > 2e-3 || ((y - by0) - (ly - y0)).abs() > 2e-3 {
            problems.push(format!(
                "cell {i}: centroid ({x:.3},{y:.3}) vs Ludii ({lx:.3},{ly:.3})"
            ));
        }
        for (key, adj) in [
            ("orthogonal", Adjacency::Edge),
            ("adjacent", Adjacency::EdgeOrVertex),
        ] {
            if board.neighbours(c, adj) != list(&cell[key]).as_slice() {
                problems.push(format!(
                    "cell {i} {key}: {:?} vs Ludii {}",
                    board.neighbours(c, adj),
                    cell[key]
                ));
            }
        }
    }
    problems
}

#[test]
fn every_ludii_board_matches_cell_by_cell() {
    let dir = oracle_dir();
    assert!(
        dir.is_dir(),
        "the Sprout-R-Out oracle folder {} is absent: these tests need it",
        dir.display()
    );
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("read the boards folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 13, "Ludii 1.3.12 has 13 board options");
    let mut problems = Vec::new();
    for file in &files {
        let slug = file.trim_end_matches(".json");
        let Some(&(_, shape, groups)) = SLUGS.iter().find(|s| s.0 == slug) else {
            problems.push(format!("{slug}: no variant value names this board"));
            continue;
        };
        let board = board_for(shape);
        for p in check(slug, board, groups) {
            problems.push(format!("{slug}: {p}"));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems[..problems.len().min(40)].join("\n")
    );
}

#[test]
fn hex_boards_have_no_vertex_only_neighbours() {
    for shape in [
        BoardShape::Limping3,
        BoardShape::Hex6,
        BoardShape::Triangle9,
        BoardShape::Epoxy72,
    ] {
        assert!(!board_for(shape).has_vertex_neighbours());
    }
    assert!(board_for(BoardShape::Square9).has_vertex_neighbours());
    assert!(board_for(BoardShape::Cairo1).has_vertex_neighbours());
}
