//! Network files: a self-describing header (JSON) followed by the quantised weights.
//!
//! Layout, little-endian:
//! - magic `PANOPLY-NNUE` (12 bytes), then a `u32` header length and that many bytes of JSON
//!   ([`Header`]: format version, family, board size, the piece catalog in input order, hidden
//!   size, quantisation constants, `adds_to: "classical"` when the network is a correction
//!   to the classical evaluation ([`Base`]), free-form training notes);
//! - feature weights `i16 [inputs][hidden]` (a row per input), feature biases `i16 [hidden]`,
//!   output weights `i16 [2 * hidden]` (first the side to move's half, then the other's),
//!   output bias `i32`;
//! - an FNV-1a 64 checksum (`u64`) of everything before it, so a damaged file is refused.
//!
//! The integer forward pass the engine computes (and the trainer's floats quantise to):
//! `acc = bias + Σ rows of the active inputs` per perspective;
//! `out = (Σ clamp(acc, 0, QA)² · w / QA + out_bias) · scale / (QA · QB)` in centipawns, with
//! the side to move's accumulator against the first half of `w`. Floats map to integers as
//! feature weights and biases × QA, output weights × QB, output bias × QA · QB.

use super::features::{Catalog, CatalogEntry, KindMap};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

pub const MAGIC: &[u8; 12] = b"PANOPLY-NNUE";
pub const FORMAT_VERSION: u64 = 1;

/// What a network is, as its file header says.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The family it was trained for (`cwda`, `swda`, ...).
    pub family: String,
    pub cells: usize,
    pub catalog: Catalog,
    pub hidden: usize,
    pub qa: i32,
    pub qb: i32,
    /// Centipawns per unit of the float output.
    pub scale: i32,
    /// What the network's output is added to.
    pub base: Base,
    /// How it was made (data, epochs, seed, losses): shown, never interpreted.
    pub notes: Value,
}

/// What a network's output is added to: nothing (the network is the evaluation), or the
/// classical evaluation (the network is a learned correction to it — a network trained on
/// fewer games than a whole evaluation needs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Base {
    #[default]
    Nothing,
    Classical,
}

impl Header {
    pub fn inputs(&self) -> usize {
        KindMap::inputs(self.catalog.entries.len(), self.cells)
    }
}

/// A quantised network as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub header: Header,
    /// `[inputs * hidden]`, a row per input.
    pub feature_weights: Vec<i16>,
    pub feature_bias: Vec<i16>,
    /// `[2 * hidden]`: the side to move's half first.
    pub output_weights: Vec<i16>,
    pub output_bias: i32,
}

/// Why a network was refused.
#[derive(Debug)]
pub enum FormatError {
    Io(std::io::Error),
    NotANetwork,
    Truncated,
    Checksum,
    Header(String),
    Version(u64),
    Size { expected: usize, found: usize },
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Io(e) => e.fmt(f),
            FormatError::NotANetwork => {
                write!(f, "not a Panoply network file (no PANOPLY-NNUE magic)")
            }
            FormatError::Truncated => write!(f, "the network file is truncated"),
            FormatError::Checksum => write!(f, "the network file is damaged (checksum mismatch)"),
            FormatError::Header(why) => write!(f, "bad network header: {why}"),
            FormatError::Version(v) => write!(
                f,
                "network format version {v}; this engine reads version {FORMAT_VERSION}"
            ),
            FormatError::Size { expected, found } => write!(
                f,
                "the header announces {expected} bytes of weights, the file has {found}"
            ),
        }
    }
}

impl std::error::Error for FormatError {}

/// A network file that could not be read or written: the file, and why.
#[derive(Debug)]
pub struct FileError {
    pub path: PathBuf,
    pub cause: FormatError,
}

impl FileError {
    fn new(path: &Path, cause: FormatError) -> FileError {
        FileError {
            path: path.to_path_buf(),
            cause,
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.cause)
    }
}

impl std::error::Error for FileError {}

/// FNV-1a, 64 bits: enough to catch damage, no dependency.
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Network {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let h = &self.header;
        let catalog: Vec<Value> = h
            .catalog
            .entries
            .iter()
            .map(|e| json!({"token": e.token, "name": e.name}))
            .collect();
        let header = json!({
            "format": FORMAT_VERSION,
            "family": h.family,
            "cells": h.cells,
            "catalog": catalog,
            "hidden": h.hidden,
            "activation": "screlu",
            "qa": h.qa,
            "qb": h.qb,
            "scale": h.scale,
            "notes": h.notes,
        });
        let mut header = header;
        if h.base == Base::Classical {
            header["adds_to"] = json!("classical");
        }
        let header = header.to_string();
        let mut out = Vec::with_capacity(self.feature_weights.len() * 2 + header.len() + 64);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        self.put_weights(&mut out);
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The weights as the file stores them, from the feature weights to the output bias.
    fn put_weights(&self, out: &mut Vec<u8>) {
        for w in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
    }

    /// The SHA-256 of the weights alone (hex): two networks with the same weights have the same
    /// digest whatever their header notes say (data paths, losses), which is what
    /// `networks/MANIFEST.toml` records and a rebuild is checked against.
    pub fn weights_sha256(&self) -> String {
        let mut bytes = Vec::with_capacity(self.feature_weights.len() * 2 + 64);
        self.put_weights(&mut bytes);
        crate::digest::sha256_hex(&bytes)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Network, FormatError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(FormatError::NotANetwork);
        }
        let (body, sum) = bytes.split_at(bytes.len().checked_sub(8).ok_or(FormatError::Truncated)?);
        if sum.len() != 8 || body.len() < MAGIC.len() + 4 {
            return Err(FormatError::Truncated);
        }
        if checksum(body) != u64::from_le_bytes(sum.try_into().unwrap()) {
            return Err(FormatError::Checksum);
        }
        let rest = &body[MAGIC.len()..];
        let len = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
        let json = rest.get(4..4 + len).ok_or(FormatError::Truncated)?;
        let header = parse_header(json)?;
        let weights = &rest[4 + len..];
        let (inputs, hidden) = (header.inputs(), header.hidden);
        let count = inputs * hidden + hidden + 2 * hidden;
        let expected = count * 2 + 4;
        if weights.len() != expected {
            return Err(FormatError::Size {
                expected,
                found: weights.len(),
            });
        }
        let mut words = weights[..count * 2]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
        let feature_weights = take(inputs * hidden);
        let feature_bias = take(hidden);
        let output_weights = take(2 * hidden);
        let output_bias = i32::from_le_bytes(weights[count * 2..].try_into().unwrap());
        Ok(Network {
            header,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    pub fn load(path: &Path) -> Result<Network, FileError> {
        let bytes = std::fs::read(path).map_err(|e| FileError::new(path, FormatError::Io(e)))?;
        Network::from_bytes(&bytes).map_err(|e| FileError::new(path, e))
    }

    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        let io = |e| FileError::new(path, FormatError::Io(e));
        // Written beside and renamed, so an interrupted save never leaves half a network.
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }
}

fn parse_header(json: &[u8]) -> Result<Header, FormatError> {
    let bad = |why: &str| FormatError::Header(why.to_string());
    let v: Value = serde_json::from_slice(json).map_err(|e| FormatError::Header(e.to_string()))?;
    let version = v["format"]
        .as_u64()
        .ok_or_else(|| bad("no format version"))?;
    if version != FORMAT_VERSION {
        return Err(FormatError::Version(version));
    }
    if v["activation"].as_str() != Some("screlu") {
        return Err(bad("unknown activation (expected screlu)"));
    }
    let number = |key: &str| -> Result<u64, FormatError> {
        v[key]
            .as_u64()
            .filter(|&n| n > 0 && n <= 1 << 20)
            .ok_or_else(|| FormatError::Header(format!("'{key}' is missing or out of range")))
    };
    let entries = v["catalog"]
        .as_array()
        .ok_or_else(|| bad("no catalog"))?
        .iter()
        .map(|e| {
            Some(CatalogEntry {
                token: e["token"].as_str()?.to_string(),
                name: e["name"].as_str()?.to_string(),
            })
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| bad("a catalog entry lacks its token or name"))?;
    if entries.is_empty() || entries.len() > 1024 {
        return Err(bad("the catalog must list 1 to 1024 pieces"));
    }
    Ok(Header {
        family: v["family"]
            .as_str()
            .ok_or_else(|| bad("no family"))?
            .to_string(),
        cells: number("cells")? as usize,
        catalog: Catalog { entries },
        hidden: number("hidden")? as usize,
        qa: number("qa")? as i32,
        qb: number("qb")? as i32,
        scale: number("scale")? as i32,
        base: match v.get("adds_to").map(|b| b.as_str()) {
            None => Base::Nothing,
            Some(Some("classical")) => Base::Classical,
            Some(_) => return Err(bad("unknown 'adds_to' (expected \"classical\")")),
        },
        notes: v["notes"].clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Network {
        let header = Header {
            family: "cwda".into(),
            cells: 4,
            catalog: Catalog {
                entries: vec![CatalogEntry {
                    token: "K".into(),
                    name: "King".into(),
                }],
            },
            hidden: 3,
            qa: 255,
            qb: 64,
            scale: 400,
            base: Base::Nothing,
            notes: json!({"seed": 7}),
        };
        let inputs = header.inputs();
        Network {
            feature_weights: (0..inputs * 3).map(|i| i as i16 - 5).collect(),
            feature_bias: vec![1, -2, 3],
            output_weights: vec![4, 5, 6, -7, -8, -9],
            output_bias: -1234,
            header,
        }
    }

    #[test]
    fn a_network_survives_the_round_trip() {
        let net = tiny();
        assert_eq!(Network::from_bytes(&net.to_bytes()).unwrap(), net);
    }

    #[test]
    fn a_correction_network_says_so_and_unknown_bases_are_refused() {
        let mut net = tiny();
        net.header.base = Base::Classical;
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
        // The same file claiming another base (same length, checksum recomputed).
        let mut other = bytes[..bytes.len() - 8].to_vec();
        let at = other
            .windows(11)
            .position(|w| w == b"\"classical\"")
            .unwrap();
        other[at + 1..at + 10].copy_from_slice(b"quantumxx");
        let sum = checksum(&other);
        other.extend_from_slice(&sum.to_le_bytes());
        match Network::from_bytes(&other) {
            Err(FormatError::Header(why)) => assert!(why.contains("adds_to"), "{why}"),
            r => panic!("{r:?}"),
        }
    }

    #[test]
    fn damage_is_refused_with_its_reason() {
        let bytes = tiny().to_bytes();
        let mut flipped = bytes.clone();
        flipped[40] ^= 1;
        assert!(matches!(
            Network::from_bytes(&flipped),
            Err(FormatError::Checksum)
        ));
        assert!(matches!(
            Network::from_bytes(&bytes[..30]),
            Err(FormatError::Checksum | FormatError::Truncated)
        ));
        assert!(matches!(
            Network::from_bytes(b"hello"),
            Err(FormatError::NotANetwork)
        ));
    }

    #[test]
    fn a_refused_file_is_named_in_its_error() {
        let dir = std::env::temp_dir().join(format!("panoply-format-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (good, bad, missing) = (
            dir.join("good.nnue"),
            dir.join("bad.nnue"),
            dir.join("no.nnue"),
        );
        tiny().save(&good).unwrap();
        assert_eq!(Network::load(&good).unwrap(), tiny());
        std::fs::write(&bad, b"hello").unwrap();
        let e = Network::load(&bad).unwrap_err();
        assert!(matches!(e.cause, FormatError::NotANetwork), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!(
                "{}: not a Panoply network file (no PANOPLY-NNUE magic)",
                bad.display()
            )
        );
        let e = Network::load(&missing).unwrap_err();
        assert!(matches!(e.cause, FormatError::Io(_)), "{e:?}");
        assert!(
            e.to_string()
                .starts_with(&format!("{}: ", missing.display())),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
