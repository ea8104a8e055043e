// Progressive enhancement: a Copy button for the one-time secret. The page works without it.
document.querySelectorAll('[data-copy]').forEach((button) => {
  button.addEventListener('click', async () => {
    const field = document.getElementById(button.getAttribute('data-copy'));
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = 'Copied';
    } catch {
      document.execCommand('copy');
      button.textContent = 'Copied';
    }
  });
});
