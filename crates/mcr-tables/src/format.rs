//! The bytes the tables travel in: a short header, then each table LZ4-compressed.
//!
//! Header (12 bytes): `MCRT`, the format's version, the kinds, whether chows are sets, the
//! number of groups (`u32`, little-endian), the number of distance classes. Then each table
//! as one LZ4 block after its compressed length (`u32`, little-endian): the classes (ten
//! bytes each), each group's class (a byte), the lowering places (16 bytes a group), and for
//! groups with chows the keeping places likewise. Each block decompresses straight into the
//! table it fills.

use std::fmt;

use crate::{GroupTables, Positions, SLOTS};

const MAGIC: &[u8; 4] = b"MCRT";
const VERSION: u8 = 2;
const HEADER: usize = 12;

/// Why bytes are not the tables this crate writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Not this format, or another version of it.
    Header,
    /// The groups the header counts are not those of its kinds.
    Groups { header: usize, expected: usize },
    /// A group names a class past the classes.
    Class(u8),
    /// The compressed block does not decompress.
    Compressed(String),
    /// A table, or the bytes, are not as long as the groups ask.
    Length { got: usize, expected: usize },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Header => write!(f, "not tables of format {VERSION}"),
            DecodeError::Groups { header, expected } => {
                write!(f, "{header} groups where the kinds make {expected}")
            }
            DecodeError::Class(c) => write!(f, "a group of class {c}, past the classes"),
            DecodeError::Compressed(e) => write!(f, "the compressed tables: {e}"),
            DecodeError::Length { got, expected } => {
                write!(f, "{got} bytes of tables where {expected} were expected")
            }
        }
    }
}

impl std::error::Error for DecodeError {}

impl GroupTables {
    /// The tables as bytes (see the module's header for the layout).
    pub fn encode(&self) -> Vec<u8> {
        let groups = self.class.len();
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(u8::try_from(self.kinds).unwrap_or(u8::MAX));
        out.push(u8::from(self.chows));
        out.extend_from_slice(&u32::try_from(groups).unwrap_or(u32::MAX).to_le_bytes());
        out.push(u8::try_from(self.classes.len()).unwrap_or(u8::MAX));
        let mut block = |bytes: &[u8]| {
            let compressed = lz4_flex::compress(bytes);
            out.extend_from_slice(
                &u32::try_from(compressed.len())
                    .unwrap_or(u32::MAX)
                    .to_le_bytes(),
            );
            out.extend_from_slice(&compressed);
        };
        block(self.classes.as_flattened());
        block(&self.class);
        block(self.lowering.as_flattened());
        if self.chows {
            block(self.keeping.as_flattened());
        }
        out
    }

    /// The tables [`GroupTables::encode`] wrote.
    pub fn decode(bytes: &[u8]) -> Result<GroupTables, DecodeError> {
        let (header, mut rest) = bytes
            .split_first_chunk::<HEADER>()
            .ok_or(DecodeError::Header)?;
        let [
            m0,
            m1,
            m2,
            m3,
            version,
            kinds,
            chows,
            g0,
            g1,
            g2,
            g3,
            classes,
        ] = *header;
        if [m0, m1, m2, m3] != *MAGIC
            || version != VERSION
            || chows > 1
            || !(1..=9).contains(&kinds)
        {
            return Err(DecodeError::Header);
        }
        let (kinds, chows) = (usize::from(kinds), chows == 1);
        let groups = u32::from_le_bytes([g0, g1, g2, g3]) as usize;
        let expected = Positions::new(kinds).len();
        if groups != expected {
            return Err(DecodeError::Groups {
                header: groups,
                expected,
            });
        }
        let mut tables = GroupTables {
            kinds,
            chows,
            classes: vec![[0; SLOTS]; usize::from(classes)],
            class: vec![0; groups],
            lowering: vec![[0; 16]; groups],
            keeping: if chows {
                vec![[0; 16]; groups]
            } else {
                Vec::new()
            },
        };
        fill(&mut rest, tables.classes.as_flattened_mut())?;
        fill(&mut rest, &mut tables.class)?;
        if let Some(&past) = tables
            .class
            .iter()
            .find(|&&c| usize::from(c) >= tables.classes.len())
        {
            return Err(DecodeError::Class(past));
        }
        fill(&mut rest, tables.lowering.as_flattened_mut())?;
        fill(&mut rest, tables.keeping.as_flattened_mut())?;
        if !rest.is_empty() {
            return Err(DecodeError::Length {
                got: bytes.len(),
                expected: bytes.len() - rest.len(),
            });
        }
        Ok(tables)
    }
}

/// Decompresses the block at the start of `rest` into all of `table`, and moves `rest` past
/// it (an empty table reads nothing).
fn fill(rest: &mut &[u8], table: &mut [u8]) -> Result<(), DecodeError> {
    if table.is_empty() {
        return Ok(());
    }
    let (len, after) = rest.split_first_chunk::<4>().ok_or(DecodeError::Length {
        got: 0,
        expected: 4,
    })?;
    let len = u32::from_le_bytes(*len) as usize;
    let block = after.get(..len).ok_or(DecodeError::Length {
        got: after.len(),
        expected: len,
    })?;
    let written = lz4_flex::decompress_into(block, table)
        .map_err(|e| DecodeError::Compressed(e.to_string()))?;
    if written != table.len() {
        return Err(DecodeError::Length {
            got: written,
            expected: table.len(),
        });
    }
    *rest = &after[len..];
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HONOURS, generate};

    #[test]
    fn round_trip_and_refusals() {
        let (kinds, chows) = HONOURS;
        let tables = generate(kinds, chows);
        let bytes = tables.encode();
        assert_eq!(GroupTables::decode(&bytes), Ok(tables));
        assert_eq!(GroupTables::decode(&bytes[..5]), Err(DecodeError::Header));
        let mut other = bytes.clone();
        other[4] = VERSION + 1;
        assert_eq!(GroupTables::decode(&other), Err(DecodeError::Header));
        let mut other = bytes.clone();
        other[7] ^= 1;
        assert!(matches!(
            GroupTables::decode(&other),
            Err(DecodeError::Groups { .. })
        ));
        let cut = &bytes[..bytes.len() - 1];
        assert!(GroupTables::decode(cut).is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            GroupTables::decode(&longer),
            Err(DecodeError::Length { .. })
        ));
    }
}
