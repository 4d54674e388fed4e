// automaton
