// queens
