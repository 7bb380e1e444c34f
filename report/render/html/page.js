// Copy buttons beside the fix commands, and a node opened when a link leads to it.
(function () {
	'use strict';
	document.addEventListener('click', function (e) {
		var b = e.target.closest && e.target.closest('button.copy');
		if (!b) return;
		var code = b.parentElement.querySelector('code');
		var text = code.textContent;
		function done(ok) {
			b.textContent = ok ? 'copied' : 'select, Ctrl-C';
			setTimeout(function () { b.textContent = 'copy'; }, 1500);
		}
		function select() {
			var r = document.createRange();
			r.selectNodeContents(code);
			var s = window.getSelection();
			s.removeAllRanges();
			s.addRange(r);
			var ok = false;
			try { ok = document.execCommand('copy'); } catch (x) { ok = false; }
			done(ok);
		}
		if (navigator.clipboard && window.isSecureContext) {
			navigator.clipboard.writeText(text).then(function () { done(true); }, select);
		} else {
			select();
		}
	});
	function openTarget() {
		var id = decodeURIComponent(location.hash.slice(1));
		var el = id && document.getElementById(id);
		if (el && el.tagName === 'DETAILS') el.open = true;
	}
	window.addEventListener('hashchange', openTarget);
	openTarget();
})();
