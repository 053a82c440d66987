#!/bin/sh
# A stand-in for a model CLI, so that the example runs anywhere: as the
# director it does nothing useful on the first iteration and applies the
# prepared patch (stand-in/calc.go.fixed over calc/calc.go) on the second;
# as the evaluator it accepts when the tests passed and otherwise quotes
# their failures. Replace it with your model CLI (llm, claude -p, ...).
prompt=$(cat)
here=$(dirname "$0")
case $TASKCTL_STEP in
fix@1)
	echo "I read calc.go and the test; I will try again with the test's output." ;;
fix@*)
	cp "$here/calc.go.fixed" "$TASKCTL_PROJECT_DIR/calc/calc.go"
	echo "Add subtracted; it adds now." ;;
review@*)
	if printf '%s' "$prompt" | grep -q '<input name="script_exit_status">0</input>'; then
		echo '{"success": true, "feedback": "go test passes"}'
	else
		fail=$(printf '%s' "$prompt" | grep -o 'Add([^)]*) = [-0-9]*, want [-0-9]*' | head -n 1)
		echo '{"success": false, "feedback": "go test fails: '"$fail"'"}'
	fi ;;
esac
