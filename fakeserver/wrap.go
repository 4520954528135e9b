package fakeserver

import (
	"net/http"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// Wrap replaces parts of the server: each func gets the correct part and
// returns the one to use; a nil func keeps it. rlspec's faults (package
// fault) are Wraps; the zero Wrap is the reference.
type Wrap struct {
	Model   func(model.Model) model.Model
	Store   func(reference.Store) reference.Store
	Keyer   func(Keyer) Keyer
	Handler func(http.Handler) http.Handler
}

func (w Wrap) model(m model.Model) model.Model {
	if w.Model == nil {
		return m
	}
	return w.Model(m)
}

func (w Wrap) store(s reference.Store) reference.Store {
	if w.Store == nil {
		return s
	}
	return w.Store(s)
}

func (w Wrap) keyer(k Keyer) Keyer {
	if w.Keyer == nil {
		return k
	}
	return w.Keyer(k)
}

func (w Wrap) handler(h http.Handler) http.Handler {
	if w.Handler == nil {
		return h
	}
	return w.Handler(h)
}
