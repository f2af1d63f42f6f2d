// `#[faster::methods]` and the attributes on its methods, misused.

// A generic block: no concrete type to call the methods at.
struct Wrapper<T>(T);

#[faster::methods]
impl<T: Clone> Wrapper<T> {
    #[faster::compare(original = Self::get_naive)]
    fn get(&self) -> T {
        self.0.clone()
    }

    fn get_naive(&self) -> T {
        self.0.clone()
    }
}

// Options on the block's attribute, and no method marked.
struct Plain;

#[faster::methods(inputs = cases)]
impl Plain {
    fn nothing() {}
}

// A receiver without `inputs`; a `&mut self` of a type that is not `Clone`;
// `types` on a method that is not generic.
struct Counter(u64);

#[faster::methods]
impl Counter {
    fn value_naive(&self) -> u64 {
        self.0
    }

    #[faster::compare(original = Self::value_naive)]
    fn value(&self) -> u64 {
        self.0
    }

    fn bump_naive(&mut self) {
        self.0 += 1;
    }

    #[faster::compare(original = Self::bump_naive, inputs = counters, check = skip)]
    fn bump(&mut self) {
        self.0 += 1;
    }

    #[faster::track(inputs = counters, types = [u32])]
    fn peek(&self) -> u64 {
        self.0
    }
}

fn counters() -> Vec<Counter> {
    vec![Counter(1)]
}

fn main() {}
