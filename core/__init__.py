"""What every app shares: permissions, jobs, the page cache, the views' shared
shape, dates, form versions, CSV and single-line safety, the admin's labels."""
