//! Which share of a run's comparisons one CI machine measures: a
//! [`Partition`] in nextest's spelling, `hash:K/N` or `slice:K/N`, parsed,
//! shown, and applied to a list of names.
//!
//! `hash:` assigns each comparison by a hash of its name alone, so a
//! function stays in its shard as others are added or removed (the shards
//! are as even as the hash makes them); `slice:` deals the names, sorted,
//! round the shards like cards (even to one, but a new name moves those
//! after it). The hash is FNV-1a over the name's bytes, mixed by
//! MurmurHash3's finalizer: fixed here, not
//! `std`'s `DefaultHasher`, whose output may change between Rust releases
//! and would move functions between shards when the toolchain changes.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// How the comparisons are dealt to the shards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// By a hash of each name: stable as names are added.
    Hash,
    /// By position among the names, sorted: even counts.
    Slice,
}

/// One shard of `count`: the comparisons machine `index` (from 1) measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    /// How the comparisons are dealt.
    pub method: Method,
    /// This shard, from 1 to `count`.
    pub index: u32,
    /// How many shards there are.
    pub count: u32,
}

/// The variable that gives the partition where no `--partition` does: how
/// `cargo faster test --partition` reaches each test binary.
pub const PARTITION_VARIABLE: &str = "FASTER_PARTITION";

impl Partition {
    /// Reads `hash:K/N` or `slice:K/N`: an error saying what is wrong and
    /// what to write.
    pub fn parse(text: &str) -> Result<Partition, String> {
        const SHAPE: &str = "write hash:K/N or slice:K/N, K from 1 to N (hash:1/4)";
        let (method, shard) = text
            .split_once(':')
            .ok_or_else(|| format!("`{text}` is not a partition: {SHAPE}"))?;
        let method = match method {
            "hash" => Method::Hash,
            "slice" => Method::Slice,
            other => {
                return Err(format!(
                    "`{other}` is not a way to partition (hash or slice): {SHAPE}"
                ));
            }
        };
        let (index, count) = shard
            .split_once('/')
            .ok_or_else(|| format!("`{shard}` is not K/N: {SHAPE}"))?;
        let number = |part: &str, what: &str| {
            part.trim()
                .parse::<u32>()
                .map_err(|_| format!("the {what} `{part}` is not a whole number: {SHAPE}"))
        };
        let (index, count) = (number(index, "shard")?, number(count, "count")?);
        if count == 0 {
            return Err(format!("`{text}` has no shards: {SHAPE}"));
        }
        if index == 0 || index > count {
            return Err(format!(
                "shard {index} of {count} does not exist (shards count from 1 to {count}): \
                 {SHAPE}"
            ));
        }
        Ok(Partition {
            method,
            index,
            count,
        })
    }

    /// The shard (from 1) `name` falls in, by its hash.
    pub fn shard_of_name(name: &str, count: u32) -> u32 {
        let fnv = name.bytes().fold(FNV_OFFSET, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME)
        });
        // FNV's low bits follow the last bytes closely, and names that end
        // alike would crowd one shard: MurmurHash3's finalizer mixes every
        // bit into every other first.
        let mut hash = fnv;
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        hash ^= hash >> 33;
        // `count` is at least 1 and the remainder below it, so both fit.
        (hash % u64::from(count.max(1))) as u32 + 1
    }

    /// Per name of `names`, whether this shard measures it. Slices are
    /// dealt by the names' sorted order, whatever order they come in.
    pub fn keeps(&self, names: &[&str]) -> Vec<bool> {
        match self.method {
            Method::Hash => names
                .iter()
                .map(|name| Partition::shard_of_name(name, self.count) == self.index)
                .collect(),
            Method::Slice => {
                let mut sorted: Vec<&str> = names.to_vec();
                sorted.sort_unstable();
                names
                    .iter()
                    .map(|name| {
                        let position = sorted.partition_point(|other| other < name);
                        position as u64 % u64::from(self.count) + 1 == u64::from(self.index)
                    })
                    .collect()
            }
        }
    }

    /// Whether this shard measures `name`, one of `names` (the names it is
    /// dealt among).
    pub fn keeps_one(&self, name: &str, names: &[&str]) -> bool {
        match self.method {
            Method::Hash => Partition::shard_of_name(name, self.count) == self.index,
            Method::Slice => {
                let kept = self.keeps(names);
                names
                    .iter()
                    .zip(kept)
                    .any(|(other, kept)| kept && *other == name)
            }
        }
    }

    /// The same partition's shard `index`.
    pub fn with_index(self, index: u32) -> Partition {
        Partition { index, ..self }
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let method = match self.method {
            Method::Hash => "hash",
            Method::Slice => "slice",
        };
        write!(f, "{method}:{}/{}", self.index, self.count)
    }
}

impl Serialize for Partition {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Partition {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Partition, D::Error> {
        let text = String::deserialize(deserializer)?;
        Partition::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(count: usize) -> Vec<String> {
        (0..count)
            .map(|i| format!("crate::module_{i}::parse_{i}"))
            .collect()
    }

    fn shard_of(partition: Partition, all: &[String]) -> Vec<u32> {
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let mut shards = vec![0; all.len()];
        for index in 1..=partition.count {
            for (shard, kept) in shards
                .iter_mut()
                .zip(partition.with_index(index).keeps(&all))
            {
                if kept {
                    assert_eq!(*shard, 0, "a name is in two shards");
                    *shard = index;
                }
            }
        }
        shards
    }

    #[test]
    fn every_name_is_in_exactly_one_shard() {
        let all = names(100);
        for text in ["hash:1/1", "hash:1/2", "hash:1/4", "slice:1/3", "slice:1/7"] {
            let shards = shard_of(Partition::parse(text).unwrap(), &all);
            assert!(shards.iter().all(|&shard| shard >= 1), "{text}");
        }
        // Slices are even to one; the hash spreads 100 names over 4 shards.
        let slices = shard_of(Partition::parse("slice:1/3").unwrap(), &all);
        let per = |shards: &[u32], shard| shards.iter().filter(|&&s| s == shard).count();
        assert_eq!([1, 2, 3].map(|s| per(&slices, s)), [34, 33, 33]);
        let hashed = shard_of(Partition::parse("hash:1/4").unwrap(), &all);
        assert!((1..=4).all(|s| (15..=35).contains(&per(&hashed, s))));
    }

    #[test]
    fn a_hashed_name_stays_in_its_shard_as_names_are_added() {
        let before = names(60);
        let after: Vec<String> = names(100)
            .into_iter()
            .chain(["a_new_first".to_string(), "zz_last".to_string()])
            .collect();
        let hash = Partition::parse("hash:1/4").unwrap();
        let (old, new) = (shard_of(hash, &before), shard_of(hash, &after));
        assert_eq!(old[..], new[..60]);
        // Whatever order the names come in.
        let mut reversed: Vec<&str> = after.iter().map(String::as_str).collect();
        reversed.reverse();
        let kept: Vec<bool> = hash.keeps(&reversed).into_iter().rev().collect();
        let kept_in_order: Vec<bool> = new.iter().map(|&shard| shard == 1).collect();
        assert_eq!(kept, kept_in_order);
        // The shard is the name's alone: fixed figures, so a change of
        // hash (which would move every user's functions) fails here.
        assert_eq!(Partition::shard_of_name("parse", 4), 2);
        assert_eq!(Partition::shard_of_name("codec::encode", 4), 4);
    }

    #[test]
    fn a_slice_is_dealt_by_sorted_order_and_keeps_one_agrees() {
        let slice = Partition::parse("slice:2/2").unwrap();
        let names = ["d", "b", "a", "c"];
        assert_eq!(slice.keeps(&names), [true, true, false, false]);
        assert!(slice.keeps_one("b", &names) && !slice.keeps_one("c", &names));
        assert!(!slice.keeps_one("e", &names));
    }

    #[test]
    fn bad_partitions_say_what_to_write() {
        let error = |text| Partition::parse(text).unwrap_err();
        assert_eq!(
            error("hash:0/2"),
            "shard 0 of 2 does not exist (shards count from 1 to 2): write hash:K/N or \
             slice:K/N, K from 1 to N (hash:1/4)"
        );
        assert!(error("hash:3/2").starts_with("shard 3 of 2 does not exist"));
        assert!(error("foo:1/2").starts_with("`foo` is not a way to partition (hash or slice)"));
        assert!(error("hash:1/0").starts_with("`hash:1/0` has no shards"));
        assert!(error("hash:1").starts_with("`1` is not K/N"));
        assert!(error("1/2").starts_with("`1/2` is not a partition"));
        assert!(error("hash:x/2").starts_with("the shard `x` is not a whole number"));
        let read = Partition::parse("slice:3/4").unwrap();
        assert_eq!(read.to_string(), "slice:3/4");
        let json = serde_json::to_string(&read).unwrap();
        assert_eq!(json, r#""slice:3/4""#);
        assert_eq!(serde_json::from_str::<Partition>(&json).unwrap(), read);
        assert!(serde_json::from_str::<Partition>(r#""hash:5/4""#).is_err());
    }
}
