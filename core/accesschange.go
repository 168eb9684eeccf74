package core

// AccessChanged is the data of accessChanged.
type AccessChanged struct {
	Enabled bool `json:"enabled"`
}
