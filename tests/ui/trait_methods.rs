// Provided methods of a `trait` block: marked where they are written, with
// `#[faster::methods]` on the block and `implementors = [...]` naming the
// types to measure them on; each misuse one error, at the attribute or the
// option, saying what to write.
pub trait Engine {
    fn digits(&self) -> &'static [u8; 16];

    // Without `#[faster::methods]` on the block: the free function the
    // error shows declares the generic parameter its parameter names.
    #[faster::track(inputs = payloads)]
    fn encode<T: AsRef<[u8]>>(&self, input: T) -> String {
        input.as_ref().iter().map(|b| char::from(self.digits()[usize::from(b & 15)])).collect()
    }
}

#[faster::methods]
pub trait Decode {
    // No `implementors`: the types to measure it on are needed.
    #[faster::track(inputs = payloads)]
    fn decode(&self, input: &[u8]) -> usize {
        input.len()
    }

    // A required method: nothing to measure here.
    #[faster::track(inputs = payloads, implementors = [Lower])]
    fn check(&self, input: &[u8]) -> bool;
}

// A generic trait cannot carry it.
#[faster::methods]
pub trait Parse<T> {
    #[faster::track(implementors = [Lower])]
    fn parse(&self) -> Option<T> {
        None
    }
}

pub struct Lower;

#[faster::methods]
impl Lower {
    // `implementors` on a method of an `impl` block.
    #[faster::track(inputs = payloads, implementors = [Lower])]
    pub fn len(&self, input: &[u8]) -> usize {
        input.len()
    }
}

// And on a free function.
#[faster::track(inputs = bytes, implementors = [Lower])]
pub fn count(input: &[u8]) -> usize {
    input.len()
}

fn payloads() -> Vec<(Lower, Vec<u8>)> {
    vec![(Lower, vec![1, 2])]
}

fn bytes() -> Vec<Vec<u8>> {
    vec![vec![1, 2]]
}

fn main() {}
