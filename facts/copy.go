package facts

// CopyOf returns a pointer to a copy of *p, nil for nil: a kept fact that must not hold on to
// the record it was read from (a view of many nodes keeps nothing of their snapshots).
func CopyOf[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
