//! n queens solved by a stochastic, asynchronous cellular automaton with local signals
//! (SPEC §2, seeds 000/001).
