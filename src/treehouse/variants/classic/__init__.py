"""Classic Treehouse: race to make your trio match the House."""
