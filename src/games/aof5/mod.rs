//! Armies of Faith 5 (docs/rules.md section 5): four armies on a 10x8x4 board. The variant is
//! data (pieces, orientations, camps, promotions); the rules that are not moves live in
//! [`events`] (checkmates between moves, promotion by checkmate, Raj replacement, game end)
//! and the position strings in [`fen`]; the piece values are fitted in [`fit`].

pub mod descriptor;
pub mod eval;
pub mod events;
pub mod fen;
pub mod fit;
pub mod measure;
pub mod merge;
pub mod pieces;

use crate::bitboard::{BitSet, Wide};
use crate::geometry::{Cell, CellNaming, Orientation, Shape};
use crate::movegen::tables::FamilyRules;
use crate::piece::{Kind, Player};
use crate::variant::{PromotionRule, PromotionSuffix, Variant};
pub use descriptor::FAMILY;
use pieces::*;

pub const CATHOLIC: Player = Player(0);
pub const PROTESTANT: Player = Player(1);
pub const ISLAMIC: Player = Player(2);
pub const BYZANTINE: Player = Player(3);

pub const SHAPE: Shape = Shape {
    files: 10,
    ranks: 8,
    levels: 4,
    naming: CellNaming::FileRowLevel,
};

pub const START: &str = "iCV,iCL,iR,iPN,2,pPN,pR,pPM,pA/iCM,iN,iY,iPN,2,pPN,pY,pN,pB/iY,iPN,iPN,4,pPN,pPN,pY/10/10/bY,bPN,bPN,4,cPN,cPN,cY/bB,bN,bY,bPN,2,cPN,cY,cN,cB/bCT,bMT,bR,bPN,2,cPN,cR,cCD,cMH|iK,iQ,iR,iPN,2,pPN,pR,pQ,pK/iCM,iN,iY,iPN,2,pPN,pY,pN,pB/iY,iPN,iPN,4,pPN,pPN,pY/10/10/bY,bPN,bPN,4,cPN,cPN,cY/bB,bN,bY,bPN,2,cPN,cY,cN,cB/bK,bQ,bR,bPN,2,cPN,cR,cQ,cK|iPC,iQ,iR,iPN,2,pPN,pR,pMD,pMD/iCM,iN,iY,iPN,2,pPN,pY,pN,pB/iY,iPN,iPN,4,pPN,pPN,pY/10/10/bY,bPN,bPN,4,cPN,cPN,cY/bB,bN,bY,bPN,2,cPN,cY,cN,cB/bV,bV,bR,bPN,2,cPN,cR,cPO,cBS|iCV,iCL,iR,iPN,2,pPN,pR,pPM,pA/iCM,iN,iY,iPN,2,pPN,pY,pN,pB/iY,iPN,iPN,4,pPN,pPN,pY/10/10/bY,bPN,bPN,4,cPN,cPN,cY/bB,bN,bY,bPN,2,cPN,cY,cN,cB/bCT,bMT,bR,bPN,2,cPN,cR,cCD,cMH c cpib - 0 1";

/// Whether a variant is the Raj subvariant.
pub fn is_raj(v: &Variant) -> bool {
    v.name == "aof5-raj"
}

/// Each army's orientation: the Byzantine frame mirrored so that its forward directions
/// become the army's (Catholic −x +y, Protestant −x −y, Islamic +x −y, Byzantine +x +y).
pub fn orientations() -> Vec<Orientation> {
    let flip = |flip_x, flip_y| Orientation {
        flip_x,
        flip_y,
        flip_z: false,
    };
    vec![
        flip(true, false),
        flip(true, true),
        flip(false, true),
        flip(false, false),
    ]
}

/// The army facing `p` across the board (Catholic–Islamic, Protestant–Byzantine).
pub fn opposite(p: Player) -> Player {
    Player((p.0 + 2) % 4)
}

/// The camp's columns in the Byzantine frame: the corner, the six other non-Pawn columns,
/// then the four Pawn columns.
const CAMP: [(i32, i32); 11] = [
    (0, 0),
    (1, 0),
    (2, 0),
    (0, 1),
    (1, 1),
    (2, 1),
    (0, 2),
    (3, 0),
    (3, 1),
    (1, 2),
    (2, 2),
];
const NON_PAWN_COLUMNS: usize = 7;

/// The cells of the given camp columns of army `p`, on all four levels.
fn camp_cells(p: Player, columns: &[(i32, i32)]) -> Vec<Cell> {
    let o = orientations()[p.index()];
    let mirror = |v: i32, n: u8, flip: bool| if flip { n as i32 - 1 - v } else { v };
    let mut out = Vec::new();
    for z in 0..SHAPE.levels as i32 {
        for &(x, y) in columns {
            let (x, y) = (
                mirror(x, SHAPE.files, o.flip_x),
                mirror(y, SHAPE.ranks, o.flip_y),
            );
            out.push(SHAPE.cell(x, y, z).expect("camp on board"));
        }
    }
    out
}

/// The whole camp of army `p` (its 11 starting columns).
pub fn camp(p: Player) -> Vec<Cell> {
    camp_cells(p, &CAMP)
}

/// The corner column of army `p` (where promotion is compulsory for its opponent).
pub fn corner(p: Player) -> Vec<Cell> {
    camp_cells(p, &CAMP[..1])
}

/// The camp's 7 non-Pawn columns.
pub fn non_pawn_columns(p: Player) -> Vec<Cell> {
    camp_cells(p, &CAMP[..NON_PAWN_COLUMNS])
}

/// The starting cells of the army's Pawns (where its Pawns may double-step from).
pub fn pawn_start_cells(p: Player) -> Vec<Cell> {
    camp_cells(p, &CAMP[NON_PAWN_COLUMNS..])
}

/// The capturable array pieces of each army (no King, Pawn or Yeoman).
pub fn array_pieces(p: Player) -> Vec<Kind> {
    match p {
        CATHOLIC => vec![
            MARSHAL, CARDINAL, QUEEN, BARONESS, POPE, ROOK, BISHOP, KNIGHT,
        ],
        PROTESTANT => vec![ANCRESS, PRIMATE, QUEEN, MODERATOR, ROOK, BISHOP, KNIGHT],
        ISLAMIC => vec![CANVASSER, CALIPH, QUEEN, PRINCE, ROOK, CAMEL, KNIGHT],
        _ => vec![
            CHATELAINE,
            METROPOLITAN,
            QUEEN,
            VICEREINE,
            ROOK,
            BISHOP,
            KNIGHT,
        ],
    }
}

/// Promotion choices: a Pawn not to a piece with a Rook slide (Rook excepted), a Yeoman not
/// to a piece with a Bishop slide (Bishop excepted).
pub fn promotion_choices(p: Player, pawn: Kind) -> Vec<Kind> {
    array_pieces(p)
        .into_iter()
        .filter(|&k| match pawn {
            PAWN => k == ROOK || !has_rook_slide(k),
            _ => k == BISHOP || !has_bishop_slide(k),
        })
        .collect()
}

fn promotions() -> Vec<PromotionRule> {
    let mut out = Vec::new();
    for p in (0..4).map(Player) {
        let them = opposite(p);
        for (kind, zone) in [(PAWN, camp(them)), (YEOMAN, non_pawn_columns(them))] {
            out.push(PromotionRule {
                player: p,
                kind,
                may_to: zone,
                may_from: Vec::new(),
                must_to: corner(them),
                choices: promotion_choices(p, kind),
            });
        }
    }
    out
}

/// Cells where an unpromoted Pawn and Yeoman of `p` may merge: promotion cells for both,
/// not on the corner column.
pub fn merge_cells(p: Player) -> Vec<Cell> {
    let them = opposite(p);
    camp_cells(them, &CAMP[1..NON_PAWN_COLUMNS])
}

/// `aof5` or, with `raj`, `aof5-raj`.
pub fn variant(raj: bool) -> Variant {
    Variant {
        armies: ["Catholic", "Protestant", "Islamic", "Byzantine"]
            .map(String::from)
            .to_vec(),
        start_position: START.to_string(),
        promotions: promotions(),
        double_step_cells: (0..4).map(|p| pawn_start_cells(Player(p))).collect(),
        // 50 moves by each player still playing: judged in `events::outcome`.
        move_rule_plies: 0,
        promotion_suffix: PromotionSuffix::EqualsToken,
        stuck_player_passes: true,
        own_game_end: true,
        rules: FamilyRules::for_both_widths(rules::<u64>(), rules::<Wide>()),
        ..Variant::new(
            if raj { "aof5-raj" } else { "aof5" },
            FAMILY,
            SHAPE,
            orientations(),
            vec!['c', 'p', 'i', 'b'],
            piece_table(),
        )
    }
}

/// The rules of Armies of Faith that are functions, for one board width: the events between
/// moves, mergers, the end of the game and the position strings.
fn rules<B: BitSet>() -> FamilyRules<B> {
    FamilyRules {
        after_move: Some(events::start_of_turn),
        game_over: Some(|_, pos| events::is_over(pos)),
        extra_moves: Some(|t, pos, f| merge::for_each_merge(t, pos, f)),
        outcome: Some(events::outcome),
        parse_position: Some(fen::parse),
        format_position: Some(fen::format),
        ..FamilyRules::default()
    }
}

pub fn names() -> Vec<String> {
    vec!["aof5".into(), "aof5-raj".into()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camps_mirror_the_byzantine_one() {
        let name = |c: Cell| SHAPE.cell_name(c);
        assert_eq!(corner(CATHOLIC)[0], SHAPE.parse_cell("js1").unwrap());
        assert_eq!(name(corner(PROTESTANT)[1]), "jz2");
        assert_eq!(name(corner(ISLAMIC)[3]), "az4");
        assert_eq!(name(corner(BYZANTINE)[0]), "as1");
        let starts: Vec<String> = pawn_start_cells(BYZANTINE)[..4]
            .iter()
            .map(|&c| name(c))
            .collect();
        assert_eq!(starts, ["ds1", "dt1", "bu1", "cu1"]);
        assert_eq!(camp(ISLAMIC).len(), 44);
        assert_eq!(merge_cells(CATHOLIC).len(), 24);
    }

    #[test]
    fn promotion_choices_follow_the_slide_restrictions() {
        assert_eq!(
            promotion_choices(BYZANTINE, PAWN),
            vec![METROPOLITAN, ROOK, BISHOP, KNIGHT]
        );
        assert_eq!(
            promotion_choices(PROTESTANT, YEOMAN),
            vec![ANCRESS, ROOK, BISHOP, KNIGHT]
        );
        assert_eq!(
            promotion_choices(ISLAMIC, PAWN),
            vec![CALIPH, PRINCE, ROOK, CAMEL, KNIGHT]
        );
        assert_eq!(
            promotion_choices(CATHOLIC, YEOMAN),
            vec![MARSHAL, BARONESS, ROOK, BISHOP, KNIGHT]
        );
    }
}
