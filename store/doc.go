// Package store persists palink's state. It is the only package that imports
// bbolt. The bucket layout is documented by the Bolt backend.
//
// It imports nothing of palink's own but model.
package store
