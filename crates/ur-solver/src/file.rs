//! The table file: a 128-byte header and the values, little-endian (`docs/ur-solver.md`,
//! "File format"). This module is the crate's only file I/O.
//!
//! A table is read into memory rather than memory-mapped: loading checks the SHA-256 of every
//! value anyway, which touches every page, and a mapped file truncated or rewritten underneath a
//! running server would fault (mapping needs `unsafe`, which the workspace forbids).

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use madang_ur::{Dice, PathKind, UrSettings};
use sha2::{Digest, Sha256};

use crate::SolverError;
use crate::table::{Header, Table, ValueType, Values};

/// The first 8 bytes of a table file.
pub const MAGIC: &[u8; 8] = b"MADANGUR";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the values.
pub const HEADER_LEN: usize = 128;

fn io<'a>(path: &'a Path, what: &'static str) -> impl FnOnce(std::io::Error) -> SolverError + 'a {
    move |error| SolverError::Io { path: path.to_owned(), what, error }
}

/// Reads the header bytes; a file shorter than a header is not a table (a format error, not an
/// I/O one: "failed to fill whole buffer" would say nothing to a person).
fn read_header_bytes(file: &mut File, path: &Path) -> Result<[u8; HEADER_LEN], SolverError> {
    let mut bytes = [0u8; HEADER_LEN];
    match file.read_exact(&mut bytes) {
        Ok(()) => Ok(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            let size = file.metadata().map(|m| m.len().to_string()).unwrap_or_else(|_| "fewer".to_owned());
            Err(SolverError::Format {
                path: path.to_owned(),
                reason: format!(
                    "not a madang Ur table: {size} bytes, shorter than a table's {HEADER_LEN}-byte header (`madang ur solve` writes tables)"
                ),
            })
        }
        Err(e) => Err(io(path, "reading the header of")(e)),
    }
}

/// The 128 header bytes.
pub fn encode_header(header: &Header) -> [u8; HEADER_LEN] {
    let mut out = [0u8; HEADER_LEN];
    out[0..8].copy_from_slice(MAGIC);
    out[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    out[12..16].copy_from_slice(&(HEADER_LEN as u32).to_le_bytes());
    let s = &header.settings;
    out[16] = s.pieces;
    out[17] = match s.path {
        PathKind::Bell => 0,
        PathKind::Masters => 1,
    };
    out[18] = match s.dice {
        Dice::FourBinary => 0,
        Dice::ThreeBinaryZeroIsFour => 1,
    };
    out[19] = u8::from(s.capture_extra_roll);
    out[20] = u8::from(s.safe_rosettes);
    out[21] = match header.value_type {
        ValueType::U16 => 1,
        ValueType::F32 => 2,
    };
    out[24..32].copy_from_slice(&header.states.to_le_bytes());
    out[32..40].copy_from_slice(&header.tolerance.to_le_bytes());
    out[40..48].copy_from_slice(&header.sweeps.to_le_bytes());
    out[48..56].copy_from_slice(&header.residual.to_le_bytes());
    out[56..64].copy_from_slice(&header.start_value.to_le_bytes());
    out[64..72].copy_from_slice(&header.seconds.to_le_bytes());
    out[72..104].copy_from_slice(&header.checksum);
    out
}

/// Parses the header bytes.
///
/// # Errors
/// [`SolverError::Format`] naming what is wrong.
pub fn decode_header(bytes: &[u8; HEADER_LEN], path: &Path) -> Result<Header, SolverError> {
    let bad = |reason: String| SolverError::Format { path: path.to_owned(), reason };
    if &bytes[0..8] != MAGIC {
        return Err(bad("not a madang Ur table (the file does not start with MADANGUR)".into()));
    }
    let u32_at = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let u64_at = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[i..i + 8]);
        u64::from_le_bytes(b)
    };
    let f64_at = |i: usize| f64::from_bits(u64_at(i));
    let version = u32_at(8);
    if version != FORMAT_VERSION {
        return Err(bad(format!("format version {version}, this build reads version {FORMAT_VERSION}")));
    }
    if u32_at(12) as usize != HEADER_LEN {
        return Err(bad(format!("header length {} (expected {HEADER_LEN})", u32_at(12))));
    }
    let flag = |i: usize, name: &str| match bytes[i] {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(bad(format!("{name} byte is {other}, not 0 or 1"))),
    };
    let settings = UrSettings {
        pieces: bytes[16],
        path: match bytes[17] {
            0 => PathKind::Bell,
            1 => PathKind::Masters,
            other => return Err(bad(format!("unknown path {other}"))),
        },
        dice: match bytes[18] {
            0 => Dice::FourBinary,
            1 => Dice::ThreeBinaryZeroIsFour,
            other => return Err(bad(format!("unknown dice {other}"))),
        },
        capture_extra_roll: flag(19, "capture_extra_roll")?,
        safe_rosettes: flag(20, "safe_rosettes")?,
    };
    if !(1..=7).contains(&settings.pieces) {
        return Err(bad(format!("pieces {} (1-7)", settings.pieces)));
    }
    let value_type = match bytes[21] {
        1 => ValueType::U16,
        2 => ValueType::F32,
        other => return Err(bad(format!("unknown value type {other}"))),
    };
    let mut checksum = [0u8; 32];
    checksum.copy_from_slice(&bytes[72..104]);
    Ok(Header {
        settings,
        value_type,
        states: u64_at(24),
        tolerance: f64_at(32),
        sweeps: u64_at(40),
        residual: f64_at(48),
        start_value: f64_at(56),
        seconds: f64_at(64),
        checksum,
    })
}

/// Writes `table` to `path` (through `path.tmp` and a rename, so a reader never sees half a
/// file).
///
/// # Errors
/// [`SolverError::Io`] naming the file.
pub fn write_table(table: &Table, path: &Path) -> Result<(), SolverError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let file = File::create(&tmp).map_err(io(&tmp, "creating"))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(&encode_header(table.header())).map_err(io(&tmp, "writing"))?;
    let mut buf = Vec::with_capacity(1 << 20);
    match table.values() {
        Values::U16(v) => {
            for chunk in v.chunks(1 << 18) {
                buf.clear();
                buf.extend(chunk.iter().flat_map(|x| x.to_le_bytes()));
                out.write_all(&buf).map_err(io(&tmp, "writing"))?;
            }
        }
        Values::F32(v) => {
            for chunk in v.chunks(1 << 17) {
                buf.clear();
                buf.extend(chunk.iter().flat_map(|x| x.to_le_bytes()));
                out.write_all(&buf).map_err(io(&tmp, "writing"))?;
            }
        }
    }
    let file =
        out.into_inner().map_err(|e| SolverError::Io { path: tmp.clone(), what: "writing", error: e.into_error() })?;
    file.sync_all().map_err(io(&tmp, "syncing"))?;
    drop(file);
    std::fs::rename(&tmp, path).map_err(io(path, "renaming the finished table to"))?;
    Ok(())
}

/// Reads only the header of the table at `path`.
///
/// # Errors
/// [`SolverError::Io`] or [`SolverError::Format`].
pub fn read_header(path: &Path) -> Result<Header, SolverError> {
    let mut file = File::open(path).map_err(io(path, "opening"))?;
    let bytes = read_header_bytes(&mut file, path)?;
    decode_header(&bytes, path)
}

/// Reads the table at `path`, checking its header, length and checksum.
///
/// # Errors
/// [`SolverError::Io`], [`SolverError::Format`] naming what is wrong.
pub fn read_table(path: &Path) -> Result<Table, SolverError> {
    let mut file = File::open(path).map_err(io(path, "opening"))?;
    let bytes = read_header_bytes(&mut file, path)?;
    let header = decode_header(&bytes, path)?;
    let bad = |reason: String| SolverError::Format { path: path.to_owned(), reason };
    let size = header.value_type.size() as u64;
    // A count no file could hold (its size would not fit in 64 bits) is refused before it is
    // compared with the file's size, where a wrapped product could match it.
    let Some(expected) = header.states.checked_mul(size).and_then(|bytes| bytes.checked_add(HEADER_LEN as u64)) else {
        return Err(bad(format!(
            "its header announces {} values of {size} bytes, more than a file can hold: the header is damaged",
            header.states
        )));
    };
    let actual = file.metadata().map_err(io(path, "reading the size of"))?.len();
    if actual != expected {
        return Err(bad(format!(
            "the file has {actual} bytes but its header announces {} values of {size} bytes ({expected} bytes): truncated or not finished",
            header.states
        )));
    }
    let states = usize::try_from(header.states).map_err(|_| bad("too many values for this machine".into()))?;
    let mut hash = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut values = Values::new(header.value_type, 0);
    let mut remaining = states * size as usize;
    match &mut values {
        Values::U16(v) => v.reserve_exact(states),
        Values::F32(v) => v.reserve_exact(states),
    }
    while remaining > 0 {
        let n = remaining.min(buf.len());
        file.read_exact(&mut buf[..n]).map_err(io(path, "reading"))?;
        hash.update(&buf[..n]);
        match &mut values {
            Values::U16(v) => v.extend(buf[..n].chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]]))),
            Values::F32(v) => v.extend(buf[..n].chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))),
        }
        remaining -= n;
    }
    let digest: [u8; 32] = hash.finalize().into();
    if digest != header.checksum {
        return Err(bad("the values' SHA-256 does not match the header: the file is damaged".into()));
    }
    Table::checked(header, values)
}

/// Reads the table at `path` and checks that it solves `settings`.
///
/// # Errors
/// As [`read_table`], and [`SolverError::OtherRulesFile`] for a table of other rules.
pub fn read_table_for(path: &Path, settings: &UrSettings) -> Result<Table, SolverError> {
    let header = read_header(path)?;
    if header.settings != *settings {
        return Err(SolverError::OtherRulesFile { path: path.to_owned(), table: header.settings, wanted: *settings });
    }
    read_table(path)
}
