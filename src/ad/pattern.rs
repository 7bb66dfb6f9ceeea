//! Sparsity patterns (boolean Jacobian structure).
