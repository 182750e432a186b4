//! Subcommand arguments that clap builds only when it enters the subcommand.
//!
//! Building every subcommand's arguments on each run took about 0.15–0.2 ms of every command
//! (README, Performance), and every command is a short process. [`Deferred`] adds a
//! subcommand's arguments to its `clap::Command` with `Command::defer`, so clap builds them
//! only to parse that subcommand, to show its help or to report a usage error in it.
//! `completions` and `man` need the whole tree at once: they take [`whole_command`].

use std::sync::atomic::{AtomicBool, Ordering};

use super::Cli;

/// A subcommand's arguments `T`, added to its `clap::Command` only when clap enters that
/// subcommand (to parse it, or for its help or a usage error) instead of on every run.
/// Parses, and shows in help, exactly as `T` would as the variant's only field; the
/// subcommand keeps its variant's about and long about, not `T`'s docstring. `completions` and
/// `man` take the whole tree at once ([`whole_command`]).
pub struct Deferred<T>(pub T);

/// Whether [`Deferred`] adds the arguments at once, as a plain `T` would ([`whole_command`]).
static EAGER: AtomicBool = AtomicBool::new(false);

/// The whole command tree with every subcommand's arguments in place, for `completions` and
/// `man`. Their generators build the tree, and clap copies the subcommands into the tree of
/// `help` before it builds them: with deferred arguments the nested subcommands would be
/// missing there (no `twilight help peer inbox` in the completion scripts).
pub fn whole_command() -> clap::Command {
    EAGER.store(true, Ordering::Relaxed);
    <Cli as clap::CommandFactory>::command()
}

impl<T: clap::Args> clap::Args for Deferred<T> {
    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
    fn augment_args(cmd: clap::Command) -> clap::Command {
        if EAGER.load(Ordering::Relaxed) {
            return T::augment_args(cmd);
        }
        cmd.defer(|cmd| keeping_about(cmd, T::augment_args))
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        if EAGER.load(Ordering::Relaxed) {
            return T::augment_args_for_update(cmd);
        }
        cmd.defer(|cmd| keeping_about(cmd, T::augment_args_for_update))
    }
}

impl<T: clap::FromArgMatches> clap::FromArgMatches for Deferred<T> {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(m).map(Deferred)
    }
    fn from_arg_matches_mut(m: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(m).map(Deferred)
    }
    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(m)
    }
    fn update_from_arg_matches_mut(&mut self, m: &mut clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(m)
    }
}

/// `augment(cmd)` with `cmd`'s about and long about put back: a derived `Args` struct sets
/// them from its own docstring (and from those of structs it flattens, such as
/// [`MailArgs`](super::args::MailArgs)), which the variant's docstring overrides only when the
/// arguments are added eagerly.
fn keeping_about(cmd: clap::Command, augment: fn(clap::Command) -> clap::Command) -> clap::Command {
    use clap::builder::Resettable;
    let about = cmd
        .get_about()
        .cloned()
        .map_or(Resettable::Reset, Resettable::Value);
    let long_about = cmd
        .get_long_about()
        .cloned()
        .map_or(Resettable::Reset, Resettable::Value);
    augment(cmd).about(about).long_about(long_about)
}
