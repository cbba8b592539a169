// Placeholder until the training-comparison element lands.
