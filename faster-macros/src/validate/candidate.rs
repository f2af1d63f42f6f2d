//! What an accepted function is, as the expansion needs it: its
//! parameters and how each is taken, its output, what keeps it from being
//! called through the `Fn` traits (and the pointer type it is called
//! through then), and its types instantiated at one of
//! `types = [...]` or with its own lifetimes left to inference.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::visit_mut::VisitMut;
use syn::{Abi, Ident, Lifetime, ReturnType, Type, TypeParam};

/// An accepted candidate function: what the expansion needs to call it.
pub(crate) struct Candidate {
    /// The function's name.
    pub ident: Ident,
    /// Its parameters, in order.
    pub params: Vec<Param>,
    /// Its return type as written.
    pub output: ReturnType,
    /// `extern "C"` and the like; the original must share it.
    pub abi: Option<Abi>,
    /// Declared lifetime parameters (`fn f<'a>`): bound again by the pointer
    /// type's `for<'a> fn(...)` when the functions are called through a
    /// pointer, left to inference (`'_`) in the types the expansion names
    /// otherwise.
    pub lifetimes: Vec<Lifetime>,
    /// An `unsafe fn`: called inside `unsafe {}`, the annotation vouching
    /// that every input meets its safety contract.
    pub unsafety: bool,
    /// It carries `#[target_feature(...)]`, which (like `unsafe` and an
    /// `extern` ABI) keeps a function from implementing the `Fn` traits.
    pub target_feature: bool,
    /// Its type parameters, which `types = [...]` instantiates.
    pub type_params: Vec<TypeParam>,
    /// It returns a reference that borrows from the input (`&str`): the
    /// check compares an owned copy of what it points to, and the timed
    /// call passes it through `black_box`.
    pub output_borrows: bool,
}

/// One parameter of the candidate.
pub(crate) struct Param {
    /// Its type as written (keeping its span, so errors land on it).
    pub ty: Type,
    /// How the function takes it.
    pub passing: Passing,
    /// Its name for messages: `` `v` ``, or `argument 2` for a pattern.
    pub name: String,
    /// Its name for examples of code: `v`, or `arg1` for a pattern.
    pub binding: String,
    /// For a `&mut` parameter, whether its state after the call is
    /// compared: always, but for a method's `&mut self` when the method
    /// returns a value (a buffer it writes its output in, as `itoa`'s
    /// `Buffer::format` does).
    pub compared: bool,
}

impl Param {
    /// Whether it takes a `&dyn Trait` (or `&mut`): an input case coerces
    /// to it by unsizing, which `Borrow` does not describe.
    pub fn takes_dyn(&self) -> bool {
        let Type::Reference(reference) = &self.ty else {
            return false;
        };
        let mut referent = &*reference.elem;
        while let Type::Paren(paren) = referent {
            referent = &paren.elem;
        }
        matches!(referent, Type::TraitObject(_))
    }
}

/// How a parameter is taken, which decides how inputs are handed over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Passing {
    /// `&T`: the function borrows the input case.
    Shared,
    /// `T`: every call consumes a fresh clone of the input case.
    Owned,
    /// `&mut T`: every call mutates a fresh clone of the input case, whose
    /// state after the call is compared as part of the output.
    Mutable,
}

impl Candidate {
    /// The parameters taken by `&mut` whose state after the call is
    /// compared.
    pub fn mutated(&self) -> impl Iterator<Item = (usize, &Param)> {
        self.params
            .iter()
            .enumerate()
            .filter(|(_, param)| param.passing == Passing::Mutable && param.compared)
    }

    /// Whether both functions are called through the runtime's `call`,
    /// which reads the original's signature off its `Fn` implementation and
    /// words a mismatch itself: a safe function of the Rust ABI, without
    /// `#[target_feature]`, of at most 12 parameters (the most `call`
    /// supports). Otherwise both are called through a pointer of the
    /// candidate's type, and rustc words a mismatch.
    pub fn calls_through_fn_traits(&self) -> bool {
        !self.unsafety && self.abi.is_none() && !self.target_feature && self.params.len() <= 12
    }

    /// Its signature as a function pointer type, `for<'a> unsafe extern
    /// "C" fn(&'a str) -> usize`, spanned over the signature so a mismatch
    /// error shows it as the expected type: what both functions are called
    /// through where not through the `Fn` traits.
    pub fn pointer_type(&self) -> TokenStream {
        let abi = &self.abi;
        let parameters = self.params.iter().map(|param| &param.ty);
        let output = &self.output;
        let lifetimes = &self.lifetimes;
        let signature_span = self.ident.span();
        let binder = if lifetimes.is_empty() {
            TokenStream::new()
        } else {
            quote_spanned!(signature_span=> for<#(#lifetimes),*>)
        };
        let unsafety = if self.unsafety {
            quote_spanned!(signature_span=> unsafe)
        } else {
            TokenStream::new()
        };
        let mut parenthesized = Group::new(Delimiter::Parenthesis, quote!(#(#parameters),*));
        parenthesized.set_span(signature_span);
        let fn_keyword = quote_spanned!(signature_span=> fn);
        let parenthesized = TokenTree::Group(parenthesized);
        quote!(#binder #unsafety #abi #fn_keyword #parenthesized #output)
    }

    /// Whether the function returns something other than `()`.
    pub fn returns_value(&self) -> bool {
        match &self.output {
            ReturnType::Default => false,
            ReturnType::Type(_, ty) => {
                !matches!(&**ty, Type::Tuple(tuple) if tuple.elems.is_empty())
            }
        }
    }

    /// `ty` with the function's own lifetimes (`'a` in `fn f<'a>(x: &'a str)`)
    /// left to inference, `&'_ str`, as a type written inside the
    /// expansion's closures must be: they do not declare them.
    pub fn without_lifetimes(&self, ty: &Type) -> Type {
        let mut ty = ty.clone();
        EraseLifetimes(&self.lifetimes).visit_type_mut(&mut ty);
        ty
    }

    /// The candidate with its type parameter replaced by `concrete` in the
    /// parameter and output types, for one of the `types = [...]`.
    pub fn instantiated(&self, concrete: &Type) -> Candidate {
        let mut substitute = Substitute {
            param: &self.type_params[0].ident,
            concrete,
        };
        let params = self
            .params
            .iter()
            .map(|param| {
                let mut ty = param.ty.clone();
                substitute.visit_type_mut(&mut ty);
                Param {
                    ty,
                    passing: param.passing,
                    name: param.name.clone(),
                    binding: param.binding.clone(),
                    compared: param.compared,
                }
            })
            .collect();
        let mut output = self.output.clone();
        substitute.visit_return_type_mut(&mut output);
        Candidate {
            ident: self.ident.clone(),
            params,
            output,
            abi: self.abi.clone(),
            lifetimes: self.lifetimes.clone(),
            unsafety: self.unsafety,
            target_feature: self.target_feature,
            type_params: Vec::new(),
            output_borrows: self.output_borrows,
        }
    }
}

/// Replaces the function's declared lifetimes with `'_`.
struct EraseLifetimes<'a>(&'a [Lifetime]);

impl VisitMut for EraseLifetimes<'_> {
    fn visit_lifetime_mut(&mut self, lifetime: &mut Lifetime) {
        if self.0.contains(lifetime) {
            *lifetime = Lifetime::new("'_", lifetime.span());
        }
    }
}

/// Replaces a type parameter with a concrete type (spanned where the
/// concrete type is written in `types = [...]`, so that an unmet bound is
/// reported there).
struct Substitute<'a> {
    param: &'a Ident,
    concrete: &'a Type,
}

impl VisitMut for Substitute<'_> {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if let Type::Path(path) = ty {
            if path.qself.is_none() && path.path.is_ident(self.param) {
                *ty = self.concrete.clone();
                return;
            }
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
}

/// What an input case holds for a parameter: a `Vec` of the elements for a
/// slice, a `String` for `str`, otherwise the referenced type (or the type,
/// for a parameter by value).
pub(crate) enum OwnedForm<'a> {
    Vec(&'a Type),
    String,
    Same(&'a Type),
}

impl OwnedForm<'_> {
    /// The form of a parameter of type `ty`.
    pub fn of(ty: &Type) -> OwnedForm<'_> {
        match ty {
            Type::Reference(reference) => match &*reference.elem {
                Type::Slice(slice) => OwnedForm::Vec(&slice.elem),
                Type::Path(path) if path.path.is_ident("str") => OwnedForm::String,
                elem => OwnedForm::Same(elem),
            },
            other => OwnedForm::Same(other),
        }
    }
}
