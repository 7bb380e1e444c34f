#compdef rdmadoctor
# zsh completion for rdmadoctor (rdmadoctor completion zsh). Install as _rdmadoctor in a
# directory of $fpath (/usr/share/zsh/vendor-completions), or after compinit:
# source <(rdmadoctor completion zsh)
# The words come from the program itself (urfave/cli's --generate-bash-completion).
_rdmadoctor() {
	local -a opts
	local cur=${words[-1]}
	if [[ "$cur" == -* ]]; then
		opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion 2>/dev/null)}")
	else
		opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
	fi
	if [[ "${opts[1]}" != "" ]]; then
		_describe 'values' opts
	else
		_files
	fi
}

if [[ "$funcstack[1]" == "_rdmadoctor" ]]; then
	_rdmadoctor "$@"
else
	compdef _rdmadoctor rdmadoctor
fi
