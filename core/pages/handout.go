package pages

// MaxHandoutText bounds a text handout.
const MaxHandoutText = 64 << 10
