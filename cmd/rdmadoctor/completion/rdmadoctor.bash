# bash completion for rdmadoctor (rdmadoctor completion bash). Install as
# /usr/share/bash-completion/completions/rdmadoctor, or: source <(rdmadoctor completion bash)
# The words come from the program itself (urfave/cli's --generate-bash-completion), so they
# always match its version. Needs no bash-completion package.
_rdmadoctor() {
	local cur="${COMP_WORDS[COMP_CWORD]}"
	local -a words=("${COMP_WORDS[@]:0:COMP_CWORD}")
	local opts
	if [[ "$cur" == -* ]]; then
		opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
	else
		opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
	fi
	mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
}
complete -o bashdefault -o default -F _rdmadoctor rdmadoctor
