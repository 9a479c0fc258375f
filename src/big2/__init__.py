"""big2: Big Two done properly."""
