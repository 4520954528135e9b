package histcheck

import "strings"

// MaxFindings bounds Result.Findings.
const MaxFindings = 20

// AnswerClass reports whether c is a finding about how the target answers
// (its rate-limit fields, its refusal's body) rather than what it decided:
// issue 24 item 13 keeps those apart from the algorithm's violations.
func AnswerClass(c Class) bool { return c == ClassHeaders || c == ClassLimited }

// SplitFindings separates Check's result into the algorithm's violations
// and the answer's findings.
func SplitFindings(all []Violation) (violations, findings []Violation) {
	for _, x := range all {
		if AnswerClass(x.Class) {
			findings = append(findings, x)
		} else {
			violations = append(violations, x)
		}
	}
	return violations, findings
}

// AddFindings adds to kept the findings of fs not seen yet (one per class
// and detail, the op number aside), up to MaxFindings.
func AddFindings(kept []Violation, seen map[string]bool, fs []Violation) []Violation {
	for _, f := range fs {
		if k := string(f.Class) + findingKey(f.Detail); !seen[k] && len(kept) < MaxFindings {
			seen[k] = true
			kept = append(kept, f)
		}
	}
	return kept
}

// findingKey is a finding's detail without its op number, so that one
// deviation seen on many ops is kept once.
func findingKey(detail string) string {
	if _, rest, ok := strings.Cut(detail, ": "); ok && strings.HasPrefix(detail, "op #") {
		return rest
	}
	return detail
}
