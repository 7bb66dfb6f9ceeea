//! Column colouring of sparse Jacobians (distance-2 colouring of the bipartite graph).
