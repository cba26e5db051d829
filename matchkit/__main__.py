from matchkit.cli import main

raise SystemExit(main())
